package org.streambench.operators;

import java.io.IOException;
import java.io.Serializable;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.streambench.db.DatabaseSettings;
import org.streambench.generator.Pattern;

/**
 * One experiment, as the job JVM receives it. The runner reads the user's YAML spec and command
 * line into this; it travels to the job as a plain properties file, so engine classpaths need
 * no YAML or JSON library.
 *
 * @param rate               records per second over all generator instances; 0 = unthrottled
 * @param keys               size of the prefilled key space (read, update, mixed)
 * @param runToken           makes this run's new keys unique on a database that keeps old runs
 * @param recordsPerGenerator a bounded run: each generator instance emits exactly this many
 *                            records and the job ends by itself; 0 = until the runner stops it
 * @param databaseSettings   connector settings (url, user, password, table, ...)
 * @param metricsHost        where the job's first worker serves its endpoint (further workers: any free port)
 * @param collector          the runner's collector URL that every worker of the job reports to;
 *                           empty for a job runtime used without a runner (tests)
 * @param engineSettings     engine options (Spark: batchIntervalMillis; Apex: streamLocality)
 */
public record ExperimentSpec(
        String engine,
        String database,
        Pattern pattern,
        int blobBytes,
        int durationSeconds,
        int warmupSeconds,
        double rate,
        long keys,
        int parallelism,
        int generatorParallelism,
        long seed,
        int runToken,
        long recordsPerGenerator,
        String metricsHost,
        int metricsPort,
        String collector,
        Map<String, String> databaseSettings,
        Map<String, String> engineSettings)
        implements Serializable {

    /**
     * The job JVM's environment variable that carries the database password: the spec file on
     * disk never holds it.
     */
    public static final String PASSWORD_ENVIRONMENT = "STREAMBENCH_DB_PASSWORD";

    private static final String PASSWORD = "password";
    private static final String DB_PREFIX = "db.";
    private static final String ENGINE_PREFIX = "engine.";

    public ExperimentSpec {
        collector = collector == null ? "" : collector;
        databaseSettings = Map.copyOf(databaseSettings);
        engineSettings = Map.copyOf(engineSettings);
    }

    public boolean bounded() {
        return recordsPerGenerator > 0;
    }

    public String engineSetting(String key, String fallback) {
        return engineSettings.getOrDefault(key, fallback);
    }

    public DatabaseSettings settings() {
        return new DatabaseSettings(databaseSettings);
    }

    public ExperimentSpec withRunToken(int token) {
        return new ExperimentSpec(
                engine,
                database,
                pattern,
                blobBytes,
                durationSeconds,
                warmupSeconds,
                rate,
                keys,
                parallelism,
                generatorParallelism,
                seed,
                token,
                recordsPerGenerator,
                metricsHost,
                metricsPort,
                collector,
                databaseSettings,
                engineSettings);
    }

    public ExperimentSpec withCollector(String url) {
        return new ExperimentSpec(
                engine,
                database,
                pattern,
                blobBytes,
                durationSeconds,
                warmupSeconds,
                rate,
                keys,
                parallelism,
                generatorParallelism,
                seed,
                runToken,
                recordsPerGenerator,
                metricsHost,
                metricsPort,
                url,
                databaseSettings,
                engineSettings);
    }

    public ExperimentSpec withDatabaseSettings(Map<String, String> settings) {
        return new ExperimentSpec(
                engine,
                database,
                pattern,
                blobBytes,
                durationSeconds,
                warmupSeconds,
                rate,
                keys,
                parallelism,
                generatorParallelism,
                seed,
                runToken,
                recordsPerGenerator,
                metricsHost,
                metricsPort,
                collector,
                settings,
                engineSettings);
    }

    public ExperimentSpec withPattern(Pattern other) {
        return new ExperimentSpec(
                engine,
                database,
                other,
                blobBytes,
                durationSeconds,
                warmupSeconds,
                rate,
                keys,
                parallelism,
                generatorParallelism,
                seed,
                runToken,
                recordsPerGenerator,
                metricsHost,
                metricsPort,
                collector,
                databaseSettings,
                engineSettings);
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, toText(), StandardCharsets.UTF_8);
    }

    /**
     * The spec as properties text, without the password (see {@link #PASSWORD_ENVIRONMENT}):
     * the form in which it travels to the job and, inside operators that an engine serializes
     * with a codec of its own (Apex), to the job's workers.
     */
    public String toText() {
        Properties p = new Properties();
        p.setProperty("engine", engine);
        p.setProperty("database", database);
        p.setProperty("pattern", pattern.cliName());
        p.setProperty("blobBytes", Integer.toString(blobBytes));
        p.setProperty("durationSeconds", Integer.toString(durationSeconds));
        p.setProperty("warmupSeconds", Integer.toString(warmupSeconds));
        p.setProperty("rate", Double.toString(rate));
        p.setProperty("keys", Long.toString(keys));
        p.setProperty("parallelism", Integer.toString(parallelism));
        p.setProperty("generatorParallelism", Integer.toString(generatorParallelism));
        p.setProperty("seed", Long.toString(seed));
        p.setProperty("runToken", Integer.toString(runToken));
        p.setProperty("recordsPerGenerator", Long.toString(recordsPerGenerator));
        p.setProperty("metricsHost", metricsHost);
        p.setProperty("metricsPort", Integer.toString(metricsPort));
        p.setProperty("collector", collector);
        databaseSettings.forEach((k, v) -> {
            if (!k.equals(PASSWORD)) {
                p.setProperty(DB_PREFIX + k, v);
            }
        });
        engineSettings.forEach((k, v) -> p.setProperty(ENGINE_PREFIX + k, v));
        StringWriter out = new StringWriter();
        try {
            p.store(out, "streambench experiment (written by the runner for the job JVM)");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    /** The password the job JVM needs (see {@link #PASSWORD_ENVIRONMENT}), or null. */
    public String password() {
        String password = databaseSettings.get(PASSWORD);
        return password == null || password.isEmpty() ? null : password;
    }

    /** Reads a spec written by {@link #write}; the password comes from the environment. */
    public static ExperimentSpec read(Path file) throws IOException {
        return fromText(Files.readString(file, StandardCharsets.UTF_8));
    }

    /** Reads a spec written by {@link #toText}; the password comes from the environment. */
    public static ExperimentSpec fromText(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringReader does not fail
        }
        Map<String, String> settings = withPrefix(p, DB_PREFIX);
        String password = System.getenv(PASSWORD_ENVIRONMENT);
        if (password != null) {
            settings.put(PASSWORD, password);
        }
        return new ExperimentSpec(
                p.getProperty("engine"),
                p.getProperty("database"),
                Pattern.parse(p.getProperty("pattern")),
                Integer.parseInt(p.getProperty("blobBytes")),
                Integer.parseInt(p.getProperty("durationSeconds")),
                Integer.parseInt(p.getProperty("warmupSeconds")),
                Double.parseDouble(p.getProperty("rate")),
                Long.parseLong(p.getProperty("keys")),
                Integer.parseInt(p.getProperty("parallelism")),
                Integer.parseInt(p.getProperty("generatorParallelism")),
                Long.parseLong(p.getProperty("seed")),
                Integer.parseInt(p.getProperty("runToken")),
                Long.parseLong(p.getProperty("recordsPerGenerator")),
                p.getProperty("metricsHost"),
                Integer.parseInt(p.getProperty("metricsPort")),
                p.getProperty("collector", ""),
                settings,
                withPrefix(p, ENGINE_PREFIX));
    }

    private static Map<String, String> withPrefix(Properties p, String prefix) {
        Map<String, String> values = new TreeMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith(prefix)) {
                values.put(name.substring(prefix.length()), p.getProperty(name));
            }
        }
        return values;
    }
}
