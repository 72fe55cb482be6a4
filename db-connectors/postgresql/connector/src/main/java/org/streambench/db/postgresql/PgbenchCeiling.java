package org.streambench.db.postgresql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.streambench.db.CeilingProcess;
import org.streambench.db.CeilingTool;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.jdbc.JdbcDatabase;
import org.streambench.db.jdbc.JdbcUrl;

/**
 * PostgreSQL's own load tool, pgbench, with scripts of the processing operator's statements on the
 * suite's table: one client per thread, prepared statements (-M prepared), each statement in its own
 * transaction as the connector's autocommit sync calls are.
 * <ul>
 * <li>The BLOB each client writes is read once, from a table of one row, into a pgbench variable:
 *     a 100,000 B BLOB as a command-line variable would exceed the longest argument (131,071 bytes).
 *     pgbench sends it as text (hex, twice its size), where the JDBC driver sends bytes.</li>
 * <li>An update adds 1 to each of the six values in the database; the runner checks that the sum
 *     of int_1 grew by the number of updates.</li>
 * <li>Each client reads and updates prefilled keys of its own (key index = client modulo clients),
 *     as each processing instance has its own keys: clients never wait for each other's row locks.</li>
 * <li>New keys: {@code n} + the client's number (2 digits) + its own counter (9 digits), never
 *     among the prefilled {@code e...} keys.</li>
 * <li>batch:N, as the connector's batch (one SELECT ... WHERE id IN for the reads, the writes in one
 *     transaction and round trip): a transaction of pgbench is N records, one SELECT ... IN for the
 *     reads, then one multi-row INSERT, or one UPDATE ... WHERE id IN of N distinct keys (spread over
 *     the client's keys: k, k + own/N, ...). Mixed alternates whole batches of misses that insert with
 *     batches of updates.</li>
 * <li>async:K: the connector has no asynchronous calls, so the operator runs K connections per
 *     instance, one call in flight on each; so does pgbench: K clients per thread.</li>
 * </ul>
 */
final class PgbenchCeiling implements CeilingTool {

    static final String BLOB_TABLE = "streambench_ceiling_blob";
    private static final int DEFAULT_PORT = 5432;
    private static final Pattern TPS = Pattern.compile("tps = ([0-9.]+) \\(without initial connection time\\)");
    private static final Pattern PROCESSED = Pattern.compile("number of transactions actually processed: (\\d+)");
    private static final String COLUMNS = "int_1, int_2, int_3, double_1, double_2, double_3, payload";

    @Override
    public String name() {
        return "pgbench";
    }

    @Override
    public String program() {
        return "pgbench";
    }

    @Override
    public String installCommand() {
        return "apt-get install postgresql-client";
    }

    @Override
    public void check(Request request) {
        CeilingTool.clientsOfOneCallEach(name(), "clients", request);
    }

    @Override
    public Measurement run(Request request, DatabaseSettings settings, Path workDir) throws Exception {
        int clients = CeilingTool.clientsOfOneCallEach(name(), "clients", request);
        String url = settings.require("url", "postgresql");
        String table = settings.get("table", JdbcDatabase.DEFAULT_TABLE);
        JdbcUrl where = JdbcUrl.parse(url, DEFAULT_PORT);
        storeBlob(url, settings, request.blobBytes());
        List<String> command = new ArrayList<>(List.of(
                program(),
                "-n",
                "-M",
                "prepared",
                "-h",
                where.host(),
                "-p",
                Integer.toString(where.port()),
                "-U",
                settings.get("user", ""),
                "-c",
                Integer.toString(clients),
                "-j",
                Integer.toString(request.threads()),
                "-T",
                Integer.toString(request.durationSeconds()),
                "-D",
                "keys=" + request.keys(),
                "-D",
                "clients=" + clients,
                "-D",
                "own=" + request.keys() / clients,
                "-D",
                "loaded=0",
                "-D",
                "counter=0",
                "-l",
                "--log-prefix=" + workDir.resolve("pgbench-log")));
        for (Script script : scripts(request, table)) {
            Path file = workDir.resolve(script.name() + ".sql");
            Files.writeString(file, script.text(), StandardCharsets.UTF_8);
            command.addAll(List.of("-f", file + "@" + script.weight()));
        }
        command.add(where.database());
        String output = CeilingProcess.run(
                command,
                Map.of("PGPASSWORD", settings.get("password", ""), "PGCONNECT_TIMEOUT", "10"),
                workDir.resolve("pgbench.out"),
                request.durationSeconds() + 120L);
        long processed = Long.parseLong(CeilingProcess.find("pgbench", PROCESSED, output));
        double tps = Double.parseDouble(CeilingProcess.find("pgbench", TPS, output));
        Log log = Log.read(workDir, "pgbench-log");
        if (log.transactions() != processed) {
            throw new IOException("pgbench logged " + log.transactions() + " transactions but reported " + processed);
        }
        long batch = request.batch();
        long inserts =
                switch (request.pattern()) {
                    case INSERT -> processed * batch;
                    case MIXED -> log.ofScript(0) * batch;
                    default -> 0;
                };
        long updates =
                switch (request.pattern()) {
                    case UPDATE -> processed * batch;
                    case MIXED -> log.ofScript(1) * batch;
                    default -> 0;
                };
        // every client's first new key (a client whose first transaction was an update inserted none)
        List<String> insertedIds = new ArrayList<>();
        for (int client = 0; inserts > 0 && client < clients; client++) {
            insertedIds.add(CeilingTool.newKey(client, 1));
        }
        return new Measurement(
                CeilingProcess.version(program()),
                command.stream().map(arg -> arg.replace(workDir + "/", "")).toList(),
                processed * batch,
                processed / tps,
                inserts,
                updates,
                log.mean(),
                log.percentile(50),
                log.percentile(99),
                log.percentile(100),
                insertedIds,
                "pgbench sends and receives the BLOB as hex text; each client writes one BLOB of the size"
                        + (batch > 1
                                ? "; a transaction is a batch of " + batch + " records, its latency the batch's"
                                : "")
                        + (request.inFlight() > 1
                                ? "; async:" + request.inFlight() + " as " + request.inFlight()
                                        + " clients per thread, as the operator runs it on this connector"
                                : ""));
    }

    /**
     * The scripts of a pattern, each with its weight (mixed: half misses that insert, half updates);
     * a transaction is {@code request.batch()} records.
     */
    static List<Script> scripts(Request request, String table) {
        int batch = request.batch();
        String loadBlob = "\\if :loaded = 0\n"
                + "SELECT '\\x' || encode(b, 'hex') AS blob, 1 AS loaded FROM " + BLOB_TABLE + " \\gset\n"
                + "\\endif\n";
        // each client reads and updates keys of its own (index = client modulo clients), as each
        // processing instance does; a batch's are distinct (an UPDATE ... IN updates a repeated key
        // once): own keys k, k + stride, ...
        String existing = "\\set k random(0, :own - 1)\n";
        long stride = Math.max(1, request.keys() / ((long) request.threads() * request.inFlight()) / batch);
        // one pgbench variable per row would pass 255 variables (pgbench's limit) at 64 rows: a batch's
        // keys are generated in the statement, an array of them an index scan takes as IN (...) does
        String existingIds = keys(
                batch, "'e' || lpad((((:k + {i} * " + stride + ") % :own) * :clients + :client_id)::text, 11, '0')");
        String newKeys = "\\set counter :counter + " + batch + "\n\\set n :client_id * 1000000000 + :counter\n";
        // the batch's new keys: counter - batch + 1 ... counter
        String newId = "'n' || lpad((:n::bigint - {i})::text, 11, '0')";
        String newIds = keys(batch, newId);
        String read = "SELECT " + COLUMNS + " FROM " + table + " WHERE id = %s;\n";
        String insert = batch == 1
                ? "INSERT INTO " + table + " (id, " + COLUMNS + ") VALUES ((" + newId.replace("{i}", "0")
                        + ")::char(12), 1, 2, 3, 1.5, 2.5, 3.5, :blob);\n"
                : "INSERT INTO " + table + " (id, " + COLUMNS + ") SELECT (" + newId.replace("{i}", "g")
                        + ")::char(12), 1, 2, 3, 1.5, 2.5, 3.5, :blob FROM generate_series(0, " + (batch - 1)
                        + ") AS g;\n";
        String update = "UPDATE " + table + " SET int_1 = int_1 + 1, int_2 = int_2 + 1, int_3 = int_3 + 1,"
                + " double_1 = double_1 + 1, double_2 = double_2 + 1, double_3 = double_3 + 1, payload = :blob"
                + " WHERE id = " + existingIds + ";\n";
        return switch (request.pattern()) {
            case READ -> List.of(new Script("read", existing + read.formatted(existingIds), 1));
            case INSERT -> List.of(new Script("insert", loadBlob + newKeys + insert, 1));
            case UPDATE -> List.of(new Script("update", loadBlob + existing + read.formatted(existingIds) + update, 1));
            case MIXED -> List.of(
                    new Script("mixed-miss-insert", loadBlob + newKeys + read.formatted(newIds) + insert, 1),
                    new Script("mixed-update", loadBlob + existing + read.formatted(existingIds) + update, 1));
        };
    }

    /**
     * The right side of {@code id = ...} for {@code count} keys made by {@code key} (a SQL text
     * expression, {@code {i}} the key's number in the batch): the key itself for one, else {@code
     * ANY (ARRAY(SELECT ... FROM generate_series(...)))}.
     */
    private static String keys(int count, String key) {
        return count == 1
                ? "(" + key.replace("{i}", "0") + ")::char(12)"
                : "ANY (ARRAY(SELECT (" + key.replace("{i}", "g") + ")::char(12) FROM generate_series(0, " + (count - 1)
                        + ") AS g))";
    }

    record Script(String name, String text, int weight) {}

    /** One row holding the BLOB the clients write: random bytes, which PostgreSQL cannot compress. */
    private static void storeBlob(String url, DatabaseSettings settings, int size) throws SQLException {
        byte[] blob = new byte[size];
        new SplittableRandom(size).nextBytes(blob);
        try (Connection connection =
                        DriverManager.getConnection(url, settings.get("user", ""), settings.get("password", ""));
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + BLOB_TABLE);
            statement.execute("CREATE TABLE " + BLOB_TABLE + " (b BYTEA NOT NULL)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + BLOB_TABLE + " VALUES (?)")) {
                insert.setBytes(1, blob);
                insert.executeUpdate();
            }
        }
    }

    /**
     * pgbench's transaction logs (one file per thread): each line {@code client transaction latency_us
     * script epoch_s epoch_us}.
     */
    static final class Log {

        private final long[] latencies;
        private final long[] byScript;

        private Log(long[] latencies, long[] byScript) {
            this.latencies = latencies;
            this.byScript = byScript;
        }

        static Log read(Path dir, String prefix) throws IOException {
            long[] latencies = new long[1024];
            int count = 0;
            long[] byScript = new long[2];
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + ".*")) {
                for (Path file : files) {
                    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                        String[] fields = line.trim().split("\\s+");
                        if (fields.length < 4) {
                            continue;
                        }
                        if (count == latencies.length) {
                            latencies = Arrays.copyOf(latencies, count * 2);
                        }
                        latencies[count++] = Long.parseLong(fields[2]);
                        int script = Integer.parseInt(fields[3]);
                        if (script < byScript.length) {
                            byScript[script]++;
                        }
                    }
                }
            }
            long[] sorted = Arrays.copyOf(latencies, count);
            Arrays.sort(sorted);
            return new Log(sorted, byScript);
        }

        long transactions() {
            return latencies.length;
        }

        /** The transactions of the {@code script}-th script (0: the first -f). */
        long ofScript(int script) {
            return byScript[script];
        }

        Double mean() {
            return latencies.length == 0
                    ? null
                    : Arrays.stream(latencies).average().orElse(0);
        }

        Long percentile(double p) {
            if (latencies.length == 0) {
                return null;
            }
            int index = (int) Math.ceil(p / 100 * latencies.length) - 1;
            return latencies[Math.max(0, Math.min(latencies.length - 1, index))];
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d transactions", latencies.length);
        }
    }
}
