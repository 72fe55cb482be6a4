package org.streambench.db.redis;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Redis through Jedis, one connection per operator instance. A record is a hash under
 * {@code <table>:<id>} whose fields are the record's columns (numbers as decimal strings, which
 * Redis's own commands and redis-cli read) and the BLOB as bytes ({@code payload}): a hash keeps
 * the record readable field by field and lets the verification check a BLOB's length on the server
 * ({@code HSTRLEN}) instead of fetching it. Writes are {@code HSET}s, which are upserts: checking a
 * key first would add a round trip to every write (see {@link Database#writesAreUpserts}). Batches
 * are one {@code MULTI}/{@code EXEC} transaction (writes) or one pipeline (reads): one round trip.
 * Exactly-once's epochs are strings under {@code <table>#commits:<sink>} ('#' is not allowed in a
 * table name, so they are never taken for records).
 * Settings: {@code url} ({@code redis://host:port[/db]}), {@code user} (default), {@code password},
 * {@code table} (the key prefix, sensor_records).
 */
public final class RedisDatabase implements Database {

    private static final byte[][] FIELDS = fields("int_1", "int_2", "int_3", "double_1", "double_2", "double_3");
    private static final byte[] PAYLOAD = bytes("payload");
    private static final byte[][] ALL_FIELDS = withPayload();
    private static final int SCAN_COUNT = 1000;
    private static final long BATCH_BYTES = 8L << 20;
    private static final int TIMEOUT_MILLIS = 30_000;

    /** INFO's cumulative counts that the runner records the growth of. */
    private static final List<String> COUNTERS =
            List.of("total_commands_processed", "total_net_input_bytes", "total_net_output_bytes");
    /** INFO's CPU times, in seconds with fractions. */
    private static final List<String> CPU_SECONDS = List.of("used_cpu_user", "used_cpu_sys");

    private Jedis jedis;
    private String url;
    private String prefix;
    private byte[] keyPattern;
    private String commitsPrefix;

    @Override
    public void open(DatabaseSettings settings) {
        url = settings.require("url", "redis");
        URI uri = uri(url);
        String table = table(settings);
        prefix = table + ":";
        keyPattern = bytes(prefix + "*");
        commitsPrefix = table + "#commits:";
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(5_000)
                .socketTimeoutMillis(TIMEOUT_MILLIS)
                .database(databaseIndex(uri))
                .clientName("streambench")
                .resp2();
        String password = settings.get("password", "");
        if (!password.isEmpty()) {
            config.user(settings.get("user", "default")).password(password);
        }
        try {
            jedis = new Jedis(new HostAndPort(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort()), config.build());
            jedis.ping();
        } catch (JedisException e) {
            close();
            throw new DatabaseException("cannot connect to redis at " + url + ": " + DatabaseException.firstLine(e), e);
        }
    }

    private static URI uri(String url) {
        try {
            URI uri = new URI(url);
            if (!"redis".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new DatabaseException("redis: url '" + url + "' must be redis://host:port[/database]");
            }
            databaseIndex(uri);
            return uri;
        } catch (URISyntaxException e) {
            throw new DatabaseException("redis: url '" + url + "' must be redis://host:port[/database]", e);
        }
    }

    private static int databaseIndex(URI uri) {
        String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
        if (path.isEmpty()) {
            return 0;
        }
        if (!path.matches("[0-9]{1,5}")) {
            throw new DatabaseException("redis: the database in url '" + uri + "' must be a number (e.g. /0)");
        }
        return Integer.parseInt(path);
    }

    private static String table(DatabaseSettings settings) {
        String table = settings.get("table", "sensor_records");
        if (!table.matches("[A-Za-z0-9_.-]+")) {
            throw new DatabaseException("redis: table '" + table
                    + "' is the prefix of the suite's keys: letters, digits, '_', '.', '-' only");
        }
        return table;
    }

    /**
     * Unlinks every key under the prefix and every sink's epoch, a batch of keys at a time; other
     * keys of the database stay.
     */
    @Override
    public void resetSchema() {
        try {
            forEachKeyBatch(keys -> jedis.unlink(keys.toArray(byte[][]::new)));
            forEachKeyBatch(bytes(commitsPrefix + "*"), keys -> jedis.unlink(keys.toArray(byte[][]::new)));
        } catch (JedisException e) {
            throw failure("reset the schema", e);
        }
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        long perBatch = Math.max(1, BATCH_BYTES / Math.max(1, blobAt.apply(0).length));
        try {
            Pipeline pipeline = jedis.pipelined();
            for (long i = 0; i < count; i++) {
                SensorRecord record = recordAt.apply(i);
                pipeline.hset(key(record.id()), hash(record, blobAt.apply(i)));
                if ((i + 1) % perBatch == 0 || i == count - 1) {
                    pipeline.sync();
                }
            }
            pipeline.close();
        } catch (JedisException e) {
            throw failure("prefill " + count + " keys", e);
        }
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        try {
            return decode(id, jedis.hmget(key(id), ALL_FIELDS));
        } catch (JedisException e) {
            throw failure("read " + id, e);
        }
    }

    /** One pipeline of HMGETs: one round trip. */
    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        try {
            Map<String, Response<List<byte[]>>> responses = new LinkedHashMap<>();
            try (Pipeline pipeline = jedis.pipelined()) {
                for (String id : ids) {
                    responses.put(id, pipeline.hmget(key(id), ALL_FIELDS));
                }
                pipeline.sync();
            }
            Map<String, StoredRecord> found = new HashMap<>();
            responses.forEach((id, response) -> decode(id, response.get()).ifPresent(stored -> found.put(id, stored)));
            return found;
        } catch (JedisException e) {
            throw failure("read a batch of " + ids.size() + " keys", e);
        }
    }

    @Override
    public void insert(SensorRecord record, byte[] blob) {
        write(record, blob, "insert");
    }

    @Override
    public void update(SensorRecord record, byte[] blob) {
        write(record, blob, "update");
    }

    private void write(SensorRecord record, byte[] blob, String what) {
        try {
            jedis.hset(key(record.id()), hash(record, blob));
        } catch (JedisException e) {
            throw failure(what + " " + record.id(), e);
        }
    }

    @Override
    public boolean writesAreUpserts() {
        return true;
    }

    /** One MULTI/EXEC transaction of HSETs, sent as one pipeline: one round trip, applied all together. */
    @Override
    public void writeAll(List<Write> writes) {
        try (Transaction transaction = jedis.multi()) {
            for (Write write : writes) {
                transaction.hset(key(write.record().id()), hash(write.record(), write.blob()));
            }
            List<Object> replies = transaction.exec();
            if (replies == null || replies.size() != writes.size()) {
                throw new DatabaseException(
                        "redis: a batch of " + writes.size() + " writes was not applied: " + replies);
            }
        } catch (JedisException e) {
            throw failure("write a batch of " + writes.size() + " records", e);
        }
    }

    @Override
    public boolean commitsEpochs() {
        return true;
    }

    /**
     * Redis's optimistic transaction: WATCH the sink's epoch, read it, and if this epoch is later,
     * MULTI with the writes' HSETs and the new epoch, then EXEC. EXEC applies all of it or, if the
     * epoch changed after the WATCH (another client committed for this sink), none of it; then the
     * epoch is read again. The commands inside cannot fail at run time (HSET and SET of well-formed
     * values), so EXEC never applies a part.
     */
    @Override
    public boolean commitEpoch(String sink, long epoch, List<Write> writes) {
        byte[] epochKey = bytes(commitsPrefix + sink);
        String what = "commit epoch " + epoch + " of " + sink + " (" + writes.size() + " records)";
        try {
            for (int attempt = 0; attempt < 3; attempt++) {
                jedis.watch(epochKey);
                byte[] committed = jedis.get(epochKey);
                if (committed != null && Long.parseLong(string(committed)) >= epoch) {
                    jedis.unwatch();
                    return false;
                }
                List<Object> replies;
                try (Transaction transaction = jedis.multi()) {
                    for (Write write : writes) {
                        transaction.hset(key(write.record().id()), hash(write.record(), write.blob()));
                    }
                    transaction.set(epochKey, bytes(Long.toString(epoch)));
                    replies = transaction.exec();
                }
                if (replies != null) {
                    return true;
                }
            }
            throw new DatabaseException("redis: could not " + what
                    + ": the sink's epoch changed under three attempts; does another client commit for " + sink + "?");
        } catch (JedisException e) {
            throw failure(what, e);
        }
    }

    @Override
    public long countRows() {
        try {
            long[] count = {0};
            forEachKeyBatch(keys -> count[0] += keys.size());
            return count[0];
        } catch (JedisException e) {
            throw failure("count keys", e);
        }
    }

    /** HSTRLEN of every record's payload, a pipeline per batch of keys: the BLOBs never leave the server. */
    @Override
    public long countBlobsNotOfLength(int length) {
        try {
            long[] wrong = {0};
            forEachKeyBatch(keys -> {
                List<Response<Long>> lengths = new ArrayList<>();
                try (Pipeline pipeline = jedis.pipelined()) {
                    for (byte[] key : keys) {
                        lengths.add(pipeline.hstrlen(key, PAYLOAD));
                    }
                    pipeline.sync();
                }
                wrong[0] += lengths.stream().filter(l -> l.get() != length).count();
            });
            return wrong[0];
        } catch (JedisException e) {
            throw failure("check the BLOB lengths", e);
        }
    }

    private interface KeyBatch {
        void accept(List<byte[]> keys);
    }

    private void forEachKeyBatch(KeyBatch batch) {
        forEachKeyBatch(keyPattern, batch);
    }

    private void forEachKeyBatch(byte[] pattern, KeyBatch batch) {
        ScanParams params = new ScanParams().match(pattern).count(SCAN_COUNT);
        byte[] cursor = ScanParams.SCAN_POINTER_START_BINARY;
        do {
            ScanResult<byte[]> page = jedis.scan(cursor, params);
            if (!page.getResult().isEmpty()) {
                batch.accept(page.getResult());
            }
            cursor = page.getCursorAsBytes();
        } while (!"0".equals(new String(cursor, StandardCharsets.US_ASCII)));
    }

    /**
     * SAVE writes the prefill to the RDB snapshot now, so that the vendor's default snapshot rules
     * (after 60 s and 10,000 changes) do not fork a snapshot of it inside the measured window.
     */
    @Override
    public String settle() {
        try {
            if (configuration().getOrDefault("save", "").isBlank()) {
                return "nothing to settle: RDB snapshots are off (save \"\")";
            }
            jedis.save();
            return "SAVE (an RDB snapshot of the prefill)";
        } catch (JedisException e) {
            return "nothing settled: the server refused SAVE (" + DatabaseException.firstLine(e) + ")";
        }
    }

    /** Read from the server: the append-only file, its fsync policy and the RDB snapshot rules. */
    @Override
    public Map<String, String> durabilitySettings() {
        try {
            Map<String, String> settings = new TreeMap<>(configuration());
            settings.put("writes", "acknowledged by the primary from memory (no WAIT)");
            return settings;
        } catch (JedisException e) {
            return Map.of("unknown", "CONFIG GET is not allowed here: " + DatabaseException.firstLine(e));
        }
    }

    private Map<String, String> configuration() {
        Map<String, String> settings = new TreeMap<>();
        for (String name : List.of("appendonly", "appendfsync", "save", "maxmemory", "maxmemory-policy")) {
            settings.putAll(jedis.configGet(name));
        }
        return settings;
    }

    /**
     * INFO's cumulative figures: commands processed, network bytes in and out, and the server's CPU
     * time (user and system, in milliseconds; INFO gives seconds with fractions).
     */
    @Override
    public Map<String, Long> serverCounters() {
        Map<String, Long> counters = new TreeMap<>();
        try {
            jedis.info().lines().forEach(line -> {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    return;
                }
                String name = line.substring(0, colon);
                String value = line.substring(colon + 1).strip();
                if (COUNTERS.contains(name)) {
                    counters.put(name, Long.parseLong(value));
                } else if (CPU_SECONDS.contains(name)) {
                    counters.put(name + "_ms", Math.round(Double.parseDouble(value) * 1000));
                }
            });
        } catch (JedisException e) {
            throw failure("read the server's counters", e);
        } catch (NumberFormatException e) {
            throw new DatabaseException("redis: INFO gave a counter that is not a number: " + e.getMessage(), e);
        }
        return counters;
    }

    @Override
    public String serverVersion() {
        try {
            return jedis.info("server")
                    .lines()
                    .filter(line -> line.startsWith("redis_version:"))
                    .map(line ->
                            "Redis " + line.substring("redis_version:".length()).strip())
                    .findFirst()
                    .orElse("Redis (version not reported)");
        } catch (JedisException e) {
            throw failure("read the server version", e);
        }
    }

    @Override
    public void close() {
        if (jedis != null) {
            try {
                jedis.close();
            } catch (JedisException e) {
                // the connection is gone either way
            }
            jedis = null;
        }
    }

    private byte[] key(String id) {
        return bytes(prefix + id);
    }

    /** Jedis's binary HSET takes its fields as a map of arrays; it only iterates over it. */
    @SuppressWarnings("ArrayAsKeyOfSetOrMap")
    private static Map<byte[], byte[]> hash(SensorRecord r, byte[] blob) {
        Map<byte[], byte[]> hash = new LinkedHashMap<>();
        hash.put(FIELDS[0], bytes(Integer.toString(r.int1())));
        hash.put(FIELDS[1], bytes(Integer.toString(r.int2())));
        hash.put(FIELDS[2], bytes(Integer.toString(r.int3())));
        hash.put(FIELDS[3], bytes(Double.toString(r.double1())));
        hash.put(FIELDS[4], bytes(Double.toString(r.double2())));
        hash.put(FIELDS[5], bytes(Double.toString(r.double3())));
        hash.put(PAYLOAD, blob);
        return hash;
    }

    private static Optional<StoredRecord> decode(String id, List<byte[]> values) {
        if (values.stream().allMatch(value -> value == null)) {
            return Optional.empty();
        }
        if (values.stream().anyMatch(value -> value == null)) {
            throw new DatabaseException("redis: the hash of " + id + " lacks some of the record's fields");
        }
        SensorRecord record = new SensorRecord(
                id,
                Integer.parseInt(string(values.get(0))),
                Integer.parseInt(string(values.get(1))),
                Integer.parseInt(string(values.get(2))),
                Double.parseDouble(string(values.get(3))),
                Double.parseDouble(string(values.get(4))),
                Double.parseDouble(string(values.get(5))));
        return Optional.of(new StoredRecord(record, values.get(6)));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[][] fields(String... names) {
        byte[][] fields = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            fields[i] = bytes(names[i]);
        }
        return fields;
    }

    private static byte[][] withPayload() {
        byte[][] all = new byte[FIELDS.length + 1][];
        System.arraycopy(FIELDS, 0, all, 0, FIELDS.length);
        all[FIELDS.length] = PAYLOAD;
        return all;
    }

    private static DatabaseException failure(String what, JedisException e) {
        return new DatabaseException("redis: could not " + what + ": " + DatabaseException.firstLine(e), e);
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "redis";
        }

        @Override
        public int order() {
            return 110;
        }

        @Override
        public Database create() {
            return new RedisDatabase();
        }

        @Override
        public List<String> settingNames() {
            return List.of("url", "user", "password", "table");
        }

        @Override
        public void checkSettings(DatabaseSettings settings) {
            String url = settings.get("url", null);
            if (url != null) {
                uri(url);
            }
            table(settings);
        }
    }
}
