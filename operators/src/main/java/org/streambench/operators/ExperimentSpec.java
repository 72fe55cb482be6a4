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
import org.streambench.generator.KeyDistribution;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.model.AccessModeName;

/**
 * One experiment, as the job JVM receives it. The runner reads the user's YAML spec and command
 * line into this; it travels to the job as a plain properties file, so engine classpaths need
 * no YAML or JSON library.
 *
 * @param rate               records per second over all generator instances; 0 = unthrottled
 * @param keys               size of the prefilled key space (read, update, mixed)
 * @param keyDistribution    how records pick among those keys ({@link KeyDistribution})
 * @param runToken           makes this run's new keys unique on a database that keeps old runs
 * @param recordsPerGenerator a bounded run: each generator instance emits exactly this many
 *                            records and the job ends by itself; 0 = until the runner stops it
 * @param databaseSettings   connector settings (url, user, password, table, ...)
 * @param metricsHost        where the job's first worker serves its endpoint (further workers: any free port)
 * @param collector          the runner's collector URL that every worker of the job reports to;
 *                           empty for a job runtime used without a runner (tests)
 * @param engineSettings     engine options (Flink: bufferTimeoutMillis; Spark: batchIntervalMillis; Apex: streamLocality)
 * @param access             how the processing operator calls the database (sync, batch:N, async:K)
 * @param guarantee          what the pipeline promises when a part of it fails ({@link Guarantee})
 * @param checkpointIntervalMillis how often the engine checkpoints, with a guarantee other than none
 * @param fault              a fault the run injects into its pipeline, or null
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
        KeyDistribution keyDistribution,
        int parallelism,
        int generatorParallelism,
        long seed,
        int runToken,
        long recordsPerGenerator,
        String metricsHost,
        int metricsPort,
        String collector,
        Map<String, String> databaseSettings,
        Map<String, String> engineSettings,
        AccessMode access,
        Guarantee guarantee,
        long checkpointIntervalMillis,
        Fault fault)
        implements Serializable {

    /** Without --checkpoint-interval: how often an engine checkpoints under a guarantee. */
    public static final long DEFAULT_CHECKPOINT_INTERVAL_MILLIS = 1000;

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
        access = access == null ? AccessMode.SYNC : access;
        keyDistribution = keyDistribution == null ? KeyDistribution.UNIFORM : keyDistribution;
        guarantee = guarantee == null ? Guarantee.NONE : guarantee;
    }

    /** The records of generator instance {@code instance}, as this run emits them. */
    public RecordGenerator recordGenerator(int instance) {
        return new RecordGenerator(seed, pattern, keys, keyDistribution, runToken, instance);
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
        return toBuilder().runToken(token).build();
    }

    public ExperimentSpec withCollector(String url) {
        return toBuilder().collector(url).build();
    }

    public ExperimentSpec withDatabaseSettings(Map<String, String> settings) {
        return toBuilder().databaseSettings(settings).build();
    }

    public ExperimentSpec withPattern(Pattern other) {
        return toBuilder().pattern(other).build();
    }

    /**
     * A spec of {@code engine} x {@code database} x {@code pattern}; everything else starts
     * neutral: 1 B BLOB, one key, one instance each, unthrottled, no time bounds, no seed, the
     * endpoint on any free port of 127.0.0.1, no collector, no settings.
     */
    public static Builder builder(String engine, String database, Pattern pattern) {
        return new Builder(engine, database, pattern);
    }

    public Builder toBuilder() {
        return new Builder(engine, database, pattern)
                .blobBytes(blobBytes)
                .durationSeconds(durationSeconds)
                .warmupSeconds(warmupSeconds)
                .rate(rate)
                .keys(keys)
                .keyDistribution(keyDistribution)
                .parallelism(parallelism)
                .generatorParallelism(generatorParallelism)
                .seed(seed)
                .runToken(runToken)
                .recordsPerGenerator(recordsPerGenerator)
                .metricsHost(metricsHost)
                .metricsPort(metricsPort)
                .collector(collector)
                .databaseSettings(databaseSettings)
                .engineSettings(engineSettings)
                .access(access)
                .guarantee(guarantee)
                .checkpointIntervalMillis(checkpointIntervalMillis)
                .fault(fault);
    }

    /** Builds a spec by field name (see {@link #builder}), so that no caller depends on the fields' order. */
    public static final class Builder {
        private final String engine;
        private final String database;
        private Pattern pattern;
        private int blobBytes = 1;
        private int durationSeconds;
        private int warmupSeconds;
        private double rate;
        private long keys = 1;
        private KeyDistribution keyDistribution = KeyDistribution.UNIFORM;
        private int parallelism = 1;
        private int generatorParallelism = 1;
        private long seed;
        private int runToken;
        private long recordsPerGenerator;
        private String metricsHost = "127.0.0.1";
        private int metricsPort;
        private String collector = "";
        private Map<String, String> databaseSettings = Map.of();
        private Map<String, String> engineSettings = Map.of();
        private AccessMode access = AccessMode.SYNC;
        private Guarantee guarantee = Guarantee.NONE;
        private long checkpointIntervalMillis = DEFAULT_CHECKPOINT_INTERVAL_MILLIS;
        private Fault fault;

        private Builder(String engine, String database, Pattern pattern) {
            this.engine = engine;
            this.database = database;
            this.pattern = pattern;
        }

        public Builder pattern(Pattern value) {
            pattern = value;
            return this;
        }

        public Builder blobBytes(int value) {
            blobBytes = value;
            return this;
        }

        public Builder durationSeconds(int value) {
            durationSeconds = value;
            return this;
        }

        public Builder warmupSeconds(int value) {
            warmupSeconds = value;
            return this;
        }

        public Builder rate(double value) {
            rate = value;
            return this;
        }

        public Builder keys(long value) {
            keys = value;
            return this;
        }

        public Builder keyDistribution(KeyDistribution value) {
            keyDistribution = value;
            return this;
        }

        public Builder parallelism(int value) {
            parallelism = value;
            return this;
        }

        public Builder generatorParallelism(int value) {
            generatorParallelism = value;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        public Builder runToken(int value) {
            runToken = value;
            return this;
        }

        public Builder recordsPerGenerator(long value) {
            recordsPerGenerator = value;
            return this;
        }

        public Builder metricsHost(String value) {
            metricsHost = value;
            return this;
        }

        public Builder metricsPort(int value) {
            metricsPort = value;
            return this;
        }

        public Builder collector(String value) {
            collector = value;
            return this;
        }

        public Builder databaseSettings(Map<String, String> value) {
            databaseSettings = value;
            return this;
        }

        public Builder engineSettings(Map<String, String> value) {
            engineSettings = value;
            return this;
        }

        public Builder access(AccessMode value) {
            access = value;
            return this;
        }

        public Builder guarantee(Guarantee value) {
            guarantee = value;
            return this;
        }

        public Builder checkpointIntervalMillis(long value) {
            checkpointIntervalMillis = value;
            return this;
        }

        public Builder fault(Fault value) {
            fault = value;
            return this;
        }

        public ExperimentSpec build() {
            return new ExperimentSpec(
                    engine,
                    database,
                    pattern,
                    blobBytes,
                    durationSeconds,
                    warmupSeconds,
                    rate,
                    keys,
                    keyDistribution,
                    parallelism,
                    generatorParallelism,
                    seed,
                    runToken,
                    recordsPerGenerator,
                    metricsHost,
                    metricsPort,
                    collector,
                    databaseSettings,
                    engineSettings,
                    access,
                    guarantee,
                    checkpointIntervalMillis,
                    fault);
        }
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
        p.setProperty("keyDistribution", keyDistribution.cliName());
        p.setProperty("parallelism", Integer.toString(parallelism));
        p.setProperty("generatorParallelism", Integer.toString(generatorParallelism));
        p.setProperty("seed", Long.toString(seed));
        p.setProperty("runToken", Integer.toString(runToken));
        p.setProperty("recordsPerGenerator", Long.toString(recordsPerGenerator));
        p.setProperty("metricsHost", metricsHost);
        p.setProperty("metricsPort", Integer.toString(metricsPort));
        p.setProperty("collector", collector);
        p.setProperty("access", access.toString());
        p.setProperty("guarantee", guarantee.cliName());
        p.setProperty("checkpointIntervalMillis", Long.toString(checkpointIntervalMillis));
        if (fault != null) {
            p.setProperty("fault", fault.toString());
        }
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
        return builder(p.getProperty("engine"), p.getProperty("database"), Pattern.parse(p.getProperty("pattern")))
                .blobBytes(Integer.parseInt(p.getProperty("blobBytes")))
                .durationSeconds(Integer.parseInt(p.getProperty("durationSeconds")))
                .warmupSeconds(Integer.parseInt(p.getProperty("warmupSeconds")))
                .rate(Double.parseDouble(p.getProperty("rate")))
                .keys(Long.parseLong(p.getProperty("keys")))
                .keyDistribution(KeyDistribution.parse(p.getProperty("keyDistribution", "uniform")))
                .parallelism(Integer.parseInt(p.getProperty("parallelism")))
                .generatorParallelism(Integer.parseInt(p.getProperty("generatorParallelism")))
                .seed(Long.parseLong(p.getProperty("seed")))
                .runToken(Integer.parseInt(p.getProperty("runToken")))
                .recordsPerGenerator(Long.parseLong(p.getProperty("recordsPerGenerator")))
                .metricsHost(p.getProperty("metricsHost"))
                .metricsPort(Integer.parseInt(p.getProperty("metricsPort")))
                .collector(p.getProperty("collector", ""))
                .databaseSettings(settings)
                .engineSettings(withPrefix(p, ENGINE_PREFIX))
                .access(AccessMode.parse(p.getProperty("access", AccessModeName.SYNC)))
                .guarantee(Guarantee.parse(p.getProperty("guarantee", Guarantee.NONE.cliName())))
                .checkpointIntervalMillis(Long.parseLong(
                        p.getProperty("checkpointIntervalMillis", Long.toString(DEFAULT_CHECKPOINT_INTERVAL_MILLIS))))
                .fault(p.getProperty("fault") == null ? null : Fault.parse(p.getProperty("fault")))
                .build();
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
