package org.streambench.operators;

import java.io.IOException;
import java.io.Reader;
import java.io.Serializable;
import java.io.Writer;
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
 * @param databaseSettings   connector settings (url, user, password, table, ...)
 */
public record ExperimentSpec(String engine, String database, Pattern pattern, int blobBytes,
                             int durationSeconds, int warmupSeconds, double rate, long keys,
                             int parallelism, int generatorParallelism, long seed, int runToken,
                             String metricsHost, int metricsPort,
                             Map<String, String> databaseSettings) implements Serializable {

    private static final String DB_PREFIX = "db.";

    public ExperimentSpec {
        databaseSettings = Map.copyOf(databaseSettings);
    }

    public DatabaseSettings settings() {
        return new DatabaseSettings(databaseSettings);
    }

    public ExperimentSpec withRunToken(int token) {
        return new ExperimentSpec(engine, database, pattern, blobBytes, durationSeconds, warmupSeconds, rate, keys,
                parallelism, generatorParallelism, seed, token, metricsHost, metricsPort, databaseSettings);
    }

    public ExperimentSpec withDatabaseSettings(Map<String, String> settings) {
        return new ExperimentSpec(engine, database, pattern, blobBytes, durationSeconds, warmupSeconds, rate, keys,
                parallelism, generatorParallelism, seed, runToken, metricsHost, metricsPort, settings);
    }

    public ExperimentSpec withMetricsPort(int port) {
        return new ExperimentSpec(engine, database, pattern, blobBytes, durationSeconds, warmupSeconds, rate, keys,
                parallelism, generatorParallelism, seed, runToken, metricsHost, port, databaseSettings);
    }

    public void write(Path file) throws IOException {
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
        p.setProperty("metricsHost", metricsHost);
        p.setProperty("metricsPort", Integer.toString(metricsPort));
        databaseSettings.forEach((k, v) -> p.setProperty(DB_PREFIX + k, v));
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(out, "streambench experiment (written by the runner for the job JVM)");
        }
    }

    public static ExperimentSpec read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        Map<String, String> settings = new TreeMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith(DB_PREFIX)) {
                settings.put(name.substring(DB_PREFIX.length()), p.getProperty(name));
            }
        }
        return new ExperimentSpec(p.getProperty("engine"), p.getProperty("database"),
                Pattern.parse(p.getProperty("pattern")), Integer.parseInt(p.getProperty("blobBytes")),
                Integer.parseInt(p.getProperty("durationSeconds")), Integer.parseInt(p.getProperty("warmupSeconds")),
                Double.parseDouble(p.getProperty("rate")), Long.parseLong(p.getProperty("keys")),
                Integer.parseInt(p.getProperty("parallelism")), Integer.parseInt(p.getProperty("generatorParallelism")),
                Long.parseLong(p.getProperty("seed")), Integer.parseInt(p.getProperty("runToken")),
                p.getProperty("metricsHost"), Integer.parseInt(p.getProperty("metricsPort")), settings);
    }
}
