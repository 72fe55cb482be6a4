package org.streambench.runner.yarn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.xml.parsers.DocumentBuilderFactory;
import org.streambench.local.UserError;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A YARN cluster as the suite sees it: a configuration folder (its {@code yarn-site.xml} and
 * {@code core-site.xml}) and the ResourceManager's REST API found through it. The suite's own
 * local YARN is one; {@code --yarn-conf DIR} or {@code HADOOP_CONF_DIR} names any other. The
 * runner reads the configuration itself (no Hadoop classes on its classpath: they clash with it).
 */
public final class YarnCluster {

    public static final String YARN_SITE = "yarn-site.xml";
    private static final String CORE_SITE = "core-site.xml";
    private static final String HDFS_SITE = "hdfs-site.xml";
    private static final int DEFAULT_WEBAPP_PORT = 8088;
    private static final int DEFAULT_NAMENODE_WEB_PORT = 9870;
    private static final String LOCAL = "the suite's local YARN";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private final Path conf;
    private final String description;
    private final URI webapp;
    private final List<Path> nodeManagerLogDirs;
    private final String defaultFileSystem;
    /** The HDFS NameNode's web address (its WebHDFS), when the default file system is HDFS. */
    private final Optional<URI> namenodeWeb;

    private YarnCluster(
            Path conf,
            String description,
            URI webapp,
            List<Path> nodeManagerLogDirs,
            String defaultFileSystem,
            Optional<URI> namenodeWeb) {
        this.conf = conf;
        this.description = description;
        this.webapp = webapp;
        this.nodeManagerLogDirs = nodeManagerLogDirs;
        this.defaultFileSystem = defaultFileSystem;
        this.namenodeWeb = namenodeWeb;
    }

    /** What the ResourceManager reports: its state and version, and the nodes that run. */
    public record Info(String state, String hadoopVersion, int runningNodes, long availableMemoryMb, int runningApps) {}

    /**
     * The cluster whose configuration is in {@code dir}; {@code source} names where the folder came
     * from in error messages (e.g. "--yarn-conf"). Bad folder: {@link UserError}.
     */
    public static YarnCluster fromConf(Path dir, String source) {
        Path site = dir.resolve(YARN_SITE);
        if (!Files.isRegularFile(site)) {
            throw new UserError(source + " " + dir + ": no " + YARN_SITE + " there; give the folder that holds the"
                    + " cluster's " + YARN_SITE + " and core-site.xml");
        }
        Map<String, String> properties = properties(site, source);
        String address = properties.get("yarn.resourcemanager.webapp.address");
        if (address == null || address.isBlank()) {
            address = properties.getOrDefault("yarn.resourcemanager.hostname", "0.0.0.0") + ":" + DEFAULT_WEBAPP_PORT;
        }
        address = address.trim().replace("0.0.0.0", "127.0.0.1");
        URI webapp;
        try {
            webapp = URI.create("http://" + address);
            if (webapp.getHost() == null || webapp.getPort() < 0) {
                throw new IllegalArgumentException("no host:port");
            }
        } catch (IllegalArgumentException e) {
            throw new UserError(source + " " + site + ": yarn.resourcemanager.webapp.address '" + address
                    + "' is not host:port; fix it there");
        }
        List<Path> logDirs = Arrays.stream(
                        properties.getOrDefault("yarn.nodemanager.log-dirs", "").split(","))
                .map(String::trim)
                .filter(logDir -> logDir.startsWith("/"))
                .map(Path::of)
                .toList();
        Path coreSite = dir.resolve(CORE_SITE);
        String defaultFileSystem = Files.isRegularFile(coreSite)
                ? properties(coreSite, source).getOrDefault("fs.defaultFS", "file:///")
                : "file:///";
        return new YarnCluster(
                dir.toAbsolutePath(),
                source + " " + dir.toAbsolutePath(),
                webapp,
                logDirs,
                defaultFileSystem.trim(),
                namenodeWeb(dir, defaultFileSystem.trim(), source));
    }

    /** hdfs-site.xml's dfs.namenode.http-address, else the default file system's host at HDFS's web port. */
    private static Optional<URI> namenodeWeb(Path dir, String defaultFileSystem, String source) {
        if (!defaultFileSystem.startsWith("hdfs://")) {
            return Optional.empty();
        }
        Path hdfsSite = dir.resolve(HDFS_SITE);
        String address =
                Files.isRegularFile(hdfsSite) ? properties(hdfsSite, source).get("dfs.namenode.http-address") : null;
        try {
            if (address == null || address.isBlank()) {
                address = URI.create(defaultFileSystem).getHost() + ":" + DEFAULT_NAMENODE_WEB_PORT;
            }
            return Optional.of(URI.create("http://" + address.trim().replace("0.0.0.0", "127.0.0.1")));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The cluster the user chose: {@code --yarn-conf} if given, else {@code $HADOOP_CONF_DIR} if set,
     * else the suite's own local YARN (configured by {@code bench yarn start}); empty when that is
     * the local one and it does not run.
     */
    public static Optional<YarnCluster> chosen(
            Optional<Path> yarnConf, Map<String, String> environment, LocalYarn local) {
        if (yarnConf.isPresent()) {
            return Optional.of(fromConf(yarnConf.get(), "--yarn-conf"));
        }
        String hadoopConf = environment.get("HADOOP_CONF_DIR");
        if (hadoopConf != null && !hadoopConf.isBlank()) {
            return Optional.of(fromConf(Path.of(hadoopConf), "HADOOP_CONF_DIR"));
        }
        if (local.running().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(fromConf(local.conf(), LOCAL));
    }

    /** The local YARN {@code bench yarn start} configured in {@code conf}. */
    static YarnCluster local(Path conf) {
        return fromConf(conf, LOCAL);
    }

    public Path conf() {
        return conf;
    }

    public URI webapp() {
        return webapp;
    }

    /**
     * The NodeManagers' container log folders that its configuration names as absolute paths (on a
     * single-node cluster such as the suite's own, this machine's); may be none.
     */
    public List<Path> nodeManagerLogDirs() {
        return nodeManagerLogDirs;
    }

    /**
     * Whether the cluster's default file system ({@code fs.defaultFS}, Hadoop's default when
     * unset) is this machine's own: then what a job stages there is a folder the runner can delete.
     */
    public boolean defaultFileSystemIsLocal() {
        return defaultFileSystem.startsWith("file:");
    }

    /**
     * Deletes {@code path} and what it holds from the cluster's HDFS (what the engines staged there
     * for a run: their jars and settings, the database password among them), through the
     * NameNode's WebHDFS; true if it was there. Nothing to do on a cluster whose file system is this
     * machine's. Unreachable, or refused: an {@link IOException} that says so.
     */
    public boolean deleteFromDistributedFileSystem(Path path) throws IOException, InterruptedException {
        if (namenodeWeb.isEmpty()) {
            return false;
        }
        URI uri = namenodeWeb
                .get()
                .resolve("/webhdfs/v1" + path.toAbsolutePath() + "?op=DELETE&recursive=true&user.name="
                        + System.getProperty("user.name"));
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofSeconds(30))
                        .DELETE()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HDFS's NameNode at " + namenodeWeb.get() + " answered " + response.statusCode()
                    + " to deleting " + path + ": " + response.body());
        }
        return JSON.readTree(response.body()).path("boolean").asBoolean();
    }

    /** Where the configuration came from, for messages. */
    public String description() {
        return description;
    }

    /** Asks the ResourceManager; unreachable or not a ResourceManager: {@link UserError}. */
    public Info info() {
        JsonNode cluster = get("/ws/v1/cluster/info").path("clusterInfo");
        JsonNode metrics = get("/ws/v1/cluster/metrics").path("clusterMetrics");
        return new Info(
                cluster.path("state").asText("UNKNOWN"),
                cluster.path("hadoopVersion").asText("unknown"),
                metrics.path("activeNodes").asInt(),
                metrics.path("availableMB").asLong(),
                metrics.path("appsRunning").asInt());
    }

    /** The application that carries {@code tag} (YARN keeps tags in lower case), once it is submitted. */
    public Optional<String> applicationWithTag(String tag) {
        JsonNode apps = get("/ws/v1/cluster/apps?applicationTags=" + tag.toLowerCase(Locale.ROOT))
                .path("apps")
                .path("app");
        return apps.isArray() && !apps.isEmpty()
                ? Optional.of(apps.get(0).path("id").asText())
                : Optional.empty();
    }

    /** The state of an application (NEW, ACCEPTED, RUNNING, FINISHED, FAILED, KILLED, ...). */
    public String applicationState(String applicationId) {
        return get("/ws/v1/cluster/apps/" + applicationId + "/state")
                .path("state")
                .asText("UNKNOWN");
    }

    /** An application's state with YARN's diagnostics, e.g. "KILLED (Application killed by user.)". */
    public String describeApplication(String applicationId) {
        JsonNode app = get("/ws/v1/cluster/apps/" + applicationId).path("app");
        String diagnostics = app.path("diagnostics").asText("").trim();
        int firstLine = diagnostics.indexOf('\n');
        return app.path("state").asText("UNKNOWN")
                + (diagnostics.isEmpty()
                        ? ""
                        : " (" + (firstLine < 0 ? diagnostics : diagnostics.substring(0, firstLine)) + ")");
    }

    /** Kills an application unless it has already ended; true if it was still running. */
    public boolean kill(String applicationId) throws IOException, InterruptedException {
        String state = applicationState(applicationId);
        if (state.equals("FINISHED") || state.equals("FAILED") || state.equals("KILLED")) {
            return false;
        }
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(webapp.resolve("/ws/v1/cluster/apps/" + applicationId + "/state"))
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofSeconds(10))
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"state\":\"KILLED\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 && response.statusCode() != 202) {
            throw new IOException("the ResourceManager answered " + response.statusCode() + " to killing "
                    + applicationId + ": " + response.body());
        }
        return true;
    }

    /** The ResourceManager's info, or empty while it does not answer yet (for waiting on a start). */
    Optional<Info> infoIfAnswering() {
        try {
            return Optional.of(info());
        } catch (UserError notYet) {
            return Optional.empty();
        }
    }

    private JsonNode get(String path) {
        URI uri = webapp.resolve(path);
        try {
            HttpResponse<String> response = HTTP.send(
                    HttpRequest.newBuilder(uri)
                            .header("Accept", "application/json")
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new UserError("the YARN ResourceManager at " + webapp + " (" + description + ") answered "
                        + response.statusCode() + " to " + path + "; is that address its web UI?");
            }
            return JSON.readTree(response.body());
        } catch (ConnectException | HttpTimeoutException e) {
            throw new UserError("the YARN ResourceManager at " + webapp + " (" + description + ") is not reachable;"
                    + " start the suite's own with ./bench yarn start, or check --yarn-conf / HADOOP_CONF_DIR");
        } catch (IOException e) {
            throw new UserError("the YARN ResourceManager at " + webapp + " (" + description + ") did not answer "
                    + path + " as a ResourceManager does (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while asking the YARN ResourceManager at " + webapp);
        }
    }

    /** The name/value pairs of a Hadoop configuration file. */
    static Map<String, String> properties(Path file, String source) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            NodeList properties =
                    factory.newDocumentBuilder().parse(file.toFile()).getElementsByTagName("property");
            Map<String, String> values = new HashMap<>();
            for (int i = 0; i < properties.getLength(); i++) {
                Element property = (Element) properties.item(i);
                NodeList name = property.getElementsByTagName("name");
                NodeList value = property.getElementsByTagName("value");
                if (name.getLength() > 0 && value.getLength() > 0) {
                    values.put(
                            name.item(0).getTextContent().trim(), value.item(0).getTextContent());
                }
            }
            return values;
        } catch (Exception e) {
            throw new UserError(
                    source + " " + file + " is not a readable Hadoop configuration file: " + e.getMessage());
        }
    }
}
