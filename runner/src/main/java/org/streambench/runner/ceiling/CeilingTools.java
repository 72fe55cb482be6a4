package org.streambench.runner.ceiling;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.streambench.db.CeilingTool;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.Databases;
import org.streambench.local.UserError;
import org.streambench.model.AccessModeName;
import org.streambench.model.CeilingDocument;
import org.streambench.operators.ExperimentSpec;

/**
 * The databases' own load tools as the commands need them: which database has one, whether it
 * makes a run's access mode at its parallelism, whether it is installed (each refusal a line for the
 * user), and a measured ceiling in one line.
 */
public final class CeilingTools {

    /** The most clients a tool runs: one per processing instance beside a run. */
    public static final int MAX_THREADS = CeilingTool.MAX_CLIENTS;

    private CeilingTools() {}

    /** A request the tool cannot run as the connector would (its access mode, its clients, its keys) is bad input. */
    public static void requireTakes(CeilingTool tool, CeilingRun.Request request) {
        String refusal = CeilingRun.refusal(tool, request);
        if (refusal != null) {
            throw new UserError(refusal);
        }
    }

    /** The database's ceiling tool; a database without one is bad input. */
    public static CeilingTool requireTool(DatabaseProvider provider) {
        return provider.ceilingTool()
                .orElseThrow(() -> new UserError("database " + provider.name() + " has no ceiling tool yet; those that"
                        + " have one: " + String.join(", ", withCeilingTool())));
    }

    /** The ceiling tool of the database named {@code database}, if it has one. */
    public static Optional<CeilingTool> toolOf(String database) {
        return Databases.provider(database).flatMap(DatabaseProvider::ceilingTool);
    }

    /** The tool of a run's database if it makes the run's access mode at its parallelism. */
    public static Optional<CeilingTool> toolFor(ExperimentSpec spec) {
        return toolOf(spec.database())
                .filter(tool -> CeilingRun.refusal(tool, CeilingBesideRun.requestOf(spec)) == null);
    }

    /** The databases that have a ceiling tool, of the registry's. */
    public static List<String> withCeilingTool() {
        return withCeilingTool(Databases.names());
    }

    /** Those of {@code databases} that have a ceiling tool, each once, in their order. */
    public static List<String> withCeilingTool(List<String> databases) {
        return databases.stream()
                .distinct()
                .filter(name -> toolOf(name).isPresent())
                .toList();
    }

    /** --ceiling beside runs: one client per processing instance, so the parallelism must be one a tool takes. */
    public static void requireClientsFor(int parallelism) {
        if (parallelism > MAX_THREADS) {
            throw new UserError("--ceiling runs one client per processing instance: at most " + MAX_THREADS
                    + ", not --parallelism " + parallelism);
        }
    }

    /** ./bench installs the tools (apt-get, cargo) before it starts Java; a tool missing here was not installable. */
    public static void requireInstalled(CeilingTool tool) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String folder : path.split(":")) {
            if (!folder.isEmpty() && Files.isExecutable(Path.of(folder, tool.program()))) {
                return;
            }
        }
        throw new UserError(tool.name() + " is not installed; install it (" + tool.installCommand()
                + ", which ./bench does by itself when it runs as root) and retry");
    }

    /** A measured ceiling in one line: the tool, its throughput and latency, and whether it verified. */
    public static String summary(CeilingDocument d, Path dir) {
        String what = String.format(
                Locale.ROOT,
                "%s ceiling (%s), %s, %d B, %d thread%s%s",
                d.database(),
                d.tool().name(),
                d.pattern(),
                d.blobBytes(),
                d.threads(),
                d.threads() == 1 ? "" : "s",
                d.accessMode().equals(AccessModeName.SYNC) ? "" : ", " + d.accessMode());
        if (d.result() == null) {
            return what + ": FAILED: " + d.error() + " -> " + dir;
        }
        String latency = d.result().p99Micros() == null
                ? ""
                : String.format(
                        Locale.ROOT,
                        ", latency p50 %s, p99 %s",
                        micros(d.result().p50Micros()),
                        micros(d.result().p99Micros()));
        return String.format(
                Locale.ROOT,
                "%s: %,.0f operations/s%s; %s%s -> %s",
                what,
                d.result().throughput(),
                latency,
                d.verification().ok() ? "verified: " : "NOT VERIFIED: ",
                d.verification().detail(),
                dir);
    }

    private static String micros(Long micros) {
        if (micros == null) {
            return "-";
        }
        return micros >= 1000 ? String.format(Locale.ROOT, "%.1f ms", micros / 1000.0) : micros + " µs";
    }
}
