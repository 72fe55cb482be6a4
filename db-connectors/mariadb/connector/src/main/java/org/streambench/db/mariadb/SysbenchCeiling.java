package org.streambench.db.mariadb;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.streambench.db.CeilingProcess;
import org.streambench.db.CeilingTool;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.jdbc.JdbcDatabase;
import org.streambench.db.jdbc.JdbcUrl;

/**
 * sysbench (the field's standard MySQL/MariaDB load tool) with a Lua script of the processing
 * operator's statements on the suite's table ({@code ceiling.lua}): one connection per thread,
 * server-side prepared statements, autocommit, as the connector's sync calls. An update adds 1 to
 * each of the six values in the database; the runner checks the sum of int_1 against the updates
 * the threads counted. The password goes to sysbench in a file only its owner can read.
 */
final class SysbenchCeiling implements CeilingTool {

    private static final int DEFAULT_PORT = 3306;
    private static final Pattern EVENTS = Pattern.compile("total number of events:\\s+(\\d+)");
    private static final Pattern TIME = Pattern.compile("total time:\\s+([0-9.]+)s");
    private static final Pattern AVG = Pattern.compile("avg:\\s+([0-9.]+)");
    private static final Pattern MAX = Pattern.compile("max:\\s+([0-9.]+)");
    private static final Pattern P99 = Pattern.compile("99th percentile:\\s+([0-9.]+)");
    private static final Pattern HISTOGRAM_ROW = Pattern.compile("^\\s*([0-9.]+) \\|[* ]*\\s(\\d+)\\s*$");
    /** Seconds sysbench runs the script before it starts counting, so a thread's first calls are not measured. */
    static final int WARMUP_SECONDS = 2;

    @Override
    public String name() {
        return "sysbench";
    }

    @Override
    public String program() {
        return "sysbench";
    }

    @Override
    public String installCommand() {
        return "apt-get install sysbench";
    }

    @Override
    public void check(Request request) {
        CeilingTool.clientsOfOneCallEach(name(), "threads", request);
    }

    @Override
    public Measurement run(Request request, DatabaseSettings settings, Path workDir) throws Exception {
        int clients = CeilingTool.clientsOfOneCallEach(name(), "threads", request);
        JdbcUrl where = JdbcUrl.parse(settings.require("url", "mariadb"), DEFAULT_PORT);
        Path script = workDir.resolve("ceiling.lua");
        try (InputStream lua = SysbenchCeiling.class.getResourceAsStream("ceiling.lua")) {
            Files.write(script, lua.readAllBytes());
        }
        Path config = workDir.resolve("sysbench.conf");
        Files.createFile(config, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(config, "mysql-password=" + settings.get("password", "") + "\n", StandardCharsets.UTF_8);
        List<String> command = List.of(
                program(),
                "--config-file=" + config,
                "--db-driver=mysql",
                "--mysql-host=" + where.host(),
                "--mysql-port=" + where.port(),
                "--mysql-user=" + settings.get("user", ""),
                "--mysql-db=" + where.database(),
                "--mysql-ssl=off",
                "--threads=" + clients,
                "--time=" + request.durationSeconds(),
                "--warmup-time=" + WARMUP_SECONDS,
                "--events=0",
                "--rate=0",
                "--percentile=99",
                "--histogram=on",
                "--report-interval=0",
                script.toString(),
                "run");
        Path counts = workDir.resolve("counts");
        String output = CeilingProcess.run(
                command,
                Map.of(
                        "CEILING_TABLE", settings.get("table", JdbcDatabase.DEFAULT_TABLE),
                        "CEILING_PATTERN", request.pattern().cliName(),
                        "CEILING_KEYS", Long.toString(request.keys()),
                        "CEILING_BLOB", Integer.toString(request.blobBytes()),
                        "CEILING_BATCH", Integer.toString(request.batch()),
                        "CEILING_COUNTS", counts.toString()),
                workDir.resolve("sysbench.out"),
                request.durationSeconds() + WARMUP_SECONDS + 120L);
        long inserts = 0;
        long updates = 0;
        List<String> insertedIds = new ArrayList<>();
        for (int thread = 0; thread < clients; thread++) {
            String[] written =
                    Files.readString(Path.of(counts + "." + thread)).trim().split(" ");
            long threadInserts = Long.parseLong(written[0]);
            inserts += threadInserts;
            updates += Long.parseLong(written[1]);
            if (threadInserts > 0) {
                insertedIds.add(CeilingTool.newKey(thread, 1));
            }
        }
        return new Measurement(
                CeilingProcess.version(program()),
                command.stream().map(arg -> arg.replace(workDir + "/", "")).toList(),
                Long.parseLong(CeilingProcess.find("sysbench", EVENTS, output)) * request.batch(),
                Double.parseDouble(CeilingProcess.find("sysbench", TIME, output)),
                inserts,
                updates,
                Double.parseDouble(CeilingProcess.find("sysbench", AVG, output)) * 1000,
                histogramMedianMicros(output),
                Math.round(Double.parseDouble(CeilingProcess.find("sysbench", P99, output)) * 1000),
                Math.round(Double.parseDouble(CeilingProcess.find("sysbench", MAX, output)) * 1000),
                insertedIds,
                "sysbench " + WARMUP_SECONDS + " s of warm-up before its count; each thread writes one BLOB of the"
                        + " size; p50 from its histogram's buckets"
                        + (request.batch() > 1
                                ? "; an event is a batch of " + request.batch() + " records, its latency the batch's"
                                : "")
                        + (request.inFlight() > 1
                                ? "; async:" + request.inFlight() + " as " + request.inFlight()
                                        + " threads per thread, as the operator runs it on this connector"
                                : ""));
    }

    /** The median from sysbench's latency histogram (ms buckets, lower bounds), in µs; null without one. */
    static Long histogramMedianMicros(String output) {
        List<double[]> rows = new ArrayList<>();
        long total = 0;
        for (String line : output.lines().toList()) {
            Matcher m = HISTOGRAM_ROW.matcher(line);
            if (m.matches()) {
                long count = Long.parseLong(m.group(2));
                rows.add(new double[] {Double.parseDouble(m.group(1)), count});
                total += count;
            }
        }
        long seen = 0;
        for (double[] row : rows) {
            seen += (long) row[1];
            if (seen * 2 >= total && total > 0) {
                return Math.round(row[0] * 1000);
            }
        }
        return null;
    }
}
