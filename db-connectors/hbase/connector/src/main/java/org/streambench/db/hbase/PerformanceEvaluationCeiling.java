package org.streambench.db.hbase;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.streambench.db.CeilingProcess;
import org.streambench.db.CeilingTool;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseSettings;

/**
 * HBase's own load tool, {@code org.apache.hadoop.hbase.PerformanceEvaluation} (from hbase-mapreduce's
 * test jar), in its own JVM with {@code --nomapred}: one client thread and one connection per
 * thread. It runs the command class of db-connectors/hbase/ceiling ({@code StreambenchOperatorTest}),
 * which makes the processing operator's calls on the suite's table and row layout: PE's built-in
 * commands write their own table and layout and have no read-modify-write. The client settings
 * ({@code hbase.*}, {@code zookeeper.*}) are the connector's.
 */
final class PerformanceEvaluationCeiling implements CeilingTool {

    static final String MODULE = "db-connectors/hbase/ceiling";
    static final String COMMAND_CLASS = "org.apache.hadoop.hbase.StreambenchOperatorTest";
    /** Seconds each client runs the calls before it starts counting, so a client's first calls are not measured. */
    static final int WARMUP_SECONDS = 2;

    private static final Pattern VERSION =
            Pattern.compile("hbase-mapreduce-([^/" + File.pathSeparator + "]+)-tests\\.jar");

    @Override
    public String name() {
        return "PerformanceEvaluation";
    }

    @Override
    public String program() {
        return "java";
    }

    @Override
    public String installCommand() {
        return "apt-get install openjdk-17-jre-headless";
    }

    /** Batches (a multi-get, a multi-put) and calls in flight (AsyncTable), as the connector makes them. */
    @Override
    public void check(Request request) {
        CeilingTool.requireClients(name(), request.threads());
        long perThread = Math.max(request.batch(), request.inFlight());
        if (request.pattern().needsExistingKeys() && request.keys() < request.threads() * perThread) {
            throw new DatabaseException("PerformanceEvaluation: " + request.keys() + " keys for " + request.threads()
                    + " threads" + (perThread > 1 ? " of " + perThread + " distinct keys at a time" : "")
                    + "; each thread updates keys of its own, so give at least " + request.threads() * perThread
                    + " keys");
        }
    }

    @Override
    public Measurement run(Request request, DatabaseSettings settings, Path workDir) throws Exception {
        check(request);
        String classpath = classpath(request.checkout());
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                "-cp",
                classpath,
                "org.apache.hadoop.hbase.PerformanceEvaluation"));
        HBaseDatabase.clientConfiguration(settings).forEach((key, value) -> command.add("-D" + key + "=" + value));
        String prefix = "-Dstreambench.ceiling.";
        command.addAll(List.of(
                prefix + "pattern=" + request.pattern().cliName(),
                prefix + "keys=" + request.keys(),
                prefix + "blob=" + request.blobBytes(),
                prefix + "seconds=" + request.durationSeconds(),
                prefix + "warmup=" + WARMUP_SECONDS,
                prefix + "out=" + workDir,
                prefix + "batch=" + request.batch(),
                prefix + "inflight=" + request.inFlight(),
                "--nomapred",
                "--rows=1",
                "--table=" + HBaseDatabase.tableName(settings).getNameAsString(),
                // PE deletes and makes anew, in its own layout, a table of another number of families
                "--families=" + HBaseDatabase.FAMILIES.size(),
                COMMAND_CLASS,
                Integer.toString(request.threads())));
        CeilingProcess.run(
                command, Map.of(), workDir.resolve("pe.out"), request.durationSeconds() + WARMUP_SECONDS + 180L);
        long operations = 0;
        long inserts = 0;
        long updates = 0;
        long nanos = 0;
        List<String> insertedIds = new ArrayList<>();
        List<long[]> latencies = new ArrayList<>();
        for (int client = 0; client < request.threads(); client++) {
            long[] counts = numbers(workDir.resolve("counts." + client));
            if (counts.length != 4) {
                throw new IOException("PerformanceEvaluation's client " + client + " wrote no counts");
            }
            operations += counts[0];
            inserts += counts[1];
            updates += counts[2];
            nanos = Math.max(nanos, counts[3]);
            if (counts[1] > 0) {
                insertedIds.add(CeilingTool.newKey(client, 1));
            }
            latencies.add(numbers(workDir.resolve("latency." + client)));
        }
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        return new Measurement(
                version(classpath),
                command.stream()
                        .map(arg -> arg.equals(classpath) ? MODULE + "/target/{classes,classpath.txt}" : arg)
                        .map(arg -> arg.replace(workDir + "/", "").replace(workDir.toString(), "."))
                        .toList(),
                operations,
                nanos / 1e9,
                inserts,
                updates,
                all.length == 0 ? null : Arrays.stream(all).average().orElse(0),
                percentile(all, 0.50),
                percentile(all, 0.99),
                all.length == 0 ? null : all[all.length - 1],
                insertedIds,
                "PerformanceEvaluation --nomapred with the operator's calls (" + COMMAND_CLASS + "); "
                        + WARMUP_SECONDS + " s of warm-up before its count; each client writes one BLOB of the size;"
                        + " latencies from PE's histogram (a uniform sample of up to 512 Ki calls per client)"
                        + (request.batch() > 1
                                ? "; batch:" + request.batch()
                                        + " as a multi-get and a multi-put, its latency the batch's"
                                : "")
                        + (request.inFlight() > 1
                                ? "; async:" + request.inFlight() + " on AsyncTable, K records in flight per client"
                                : ""));
    }

    /** The command class's module: its classes and its dependencies as Maven listed them. */
    static String classpath(Path checkout) throws IOException {
        Path target = checkout.resolve(MODULE).resolve("target");
        Path listing = target.resolve("classpath.txt");
        if (!Files.isRegularFile(listing) || !Files.isDirectory(target.resolve("classes"))) {
            throw new DatabaseException(MODULE + " is not built; run ./bench build (or mvn -DskipTests install)");
        }
        return target.resolve("classes")
                + File.pathSeparator
                + Files.readString(listing).trim();
    }

    static String version(String classpath) {
        Matcher m = VERSION.matcher(classpath);
        return m.find() ? "HBase PerformanceEvaluation " + m.group(1) : "HBase PerformanceEvaluation";
    }

    private static long[] numbers(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("PerformanceEvaluation wrote no " + file.getFileName());
        }
        return Files.readString(file)
                .lines()
                .flatMap(line -> Arrays.stream(line.trim().split(" ")))
                .filter(word -> !word.isEmpty())
                .mapToLong(Long::parseLong)
                .toArray();
    }

    /** The nearest-rank percentile of sorted {@code values}; null when there are none. */
    static Long percentile(long[] values, double quantile) {
        if (values.length == 0) {
            return null;
        }
        int rank = (int) Math.ceil(quantile * values.length);
        return values[Math.max(0, Math.min(values.length - 1, rank - 1))];
    }
}
