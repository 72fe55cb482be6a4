package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.runner.cli.Bench;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every numeric and duration option of every command, found in the CLI's own model by the kind its
 * {@code paramLabel} declares (N, PORT, DURATION, ...), given values no one means as a number of
 * that kind: other scripts' digits, zero or a negative where it makes no sense, fractions,
 * exponents, numbers beyond a long, units that do not exist. Each must be refused in one line that
 * names the option, exit 2, with nothing started or written. An option added later is covered by
 * its label; one whose default is a number but whose label declares no kind fails {@link
 * #everyOptionWithANumberForADefaultDeclaresItsKind}.
 */
class HostileNumbersTest {

    /** Values that no numeric option takes. */
    private static final List<String> NEVER_A_NUMBER = List.of(
            "١٠٠", // Arabic-Indic 100
            "１００", // full-width 100
            "१०", // Devanagari 10
            "1e3",
            "0x10",
            "99999999999999999999999",
            "5x",
            "NaN",
            "-Infinity",
            "1_000",
            "");

    /** The kinds of value a label declares, with what each kind must refuse besides {@link #NEVER_A_NUMBER}. */
    private static final Map<String, List<String>> ALSO_REFUSED = Map.ofEntries(
            Map.entry("N", List.of("0", "-1", "1.5", "+-1")),
            Map.entry("BYTES", List.of("0", "-1", "1.5", "10kb")),
            Map.entry("SEED", List.of("1.5", "--1")),
            Map.entry("TOKEN", List.of("-1", "1.5")),
            Map.entry("PORT", List.of("-1", "65536", "1.5", "80.0")),
            Map.entry("DURATION", List.of("-5s", "1.5s", "5y", "5 m", "١s", "1e3s")),
            Map.entry("DURATION|steady[:MAX]", List.of("-5s", "1.5s", "5y", "steady:١m", "steady:-1m")),
            Map.entry("RATE", List.of("-1", "Infinity", "1,000", "1e30", "100d", "1000000000")),
            Map.entry("SIZE", List.of("١g", "0m", "1.5g", "-1g", "99999999999999999999g", "5x")),
            Map.entry("N,...", List.of("1,١٠٠", "1,0", "1,1e3", "1,-1")),
            Map.entry("BYTES,...", List.of("1,١٠٠", "1,0", "1,1e3", "1,-1")),
            Map.entry("p99=DURATION", List.of("p99=١ms", "p99=1e3ms", "p99=-5ms", "p99=NaNms", "p99=5yr")));

    @TempDir
    static Path tmp;

    /** Commands whose refusal comes before anything starts: a value taken by mistake meets a later refusal, never a run. */
    private static List<String> invocation(String command) {
        String busy = tmp.resolve("busy").toString();
        return switch (command) {
            case "run" -> List.of("run", "--db", "noop", "--metrics-port", "0", "--out", busy);
            case "capacity" -> List.of(
                    "capacity", "--db", "noop", "--slo", "p99=5s", "--metrics-port", "0", "--dry-run", "--out", busy);
            case "matrix" -> List.of(
                    "matrix",
                    "--engines",
                    "flink",
                    "--databases",
                    "noop",
                    "--patterns",
                    "update",
                    "--metrics-port",
                    "0",
                    "--dry-run",
                    "--out",
                    busy);
            case "ceiling" -> List.of("ceiling", "--db", "postgresql", "--out", busy);
            case "quickstart" -> List.of("quickstart", "--metrics-port", "0", "--out", busy);
            case "db start" -> List.of("db", "start", "postgresql");
            default -> List.of(command.split(" "));
        };
    }

    @TestFactory
    Stream<DynamicTest> everyNumericOptionRefusesHostileValuesInOneLine() throws Exception {
        Path busy = Files.createDirectories(tmp.resolve("busy"));
        Files.writeString(busy.resolve("result.json"), "{}");
        // the work folder is a file: a server, YARN or Prometheus started by mistake cannot start
        Path work = Files.writeString(tmp.resolve("work-is-a-file"), "");
        List<DynamicTest> tests = new ArrayList<>();
        forEachOption((command, option) -> {
            List<String> kind = ALSO_REFUSED.get(option.paramLabel());
            if (kind == null) {
                return;
            }
            List<String> values = new ArrayList<>(NEVER_A_NUMBER);
            values.addAll(kind);
            if (option.paramLabel().equals("p99=DURATION")) {
                values.replaceAll(value -> value.startsWith("p99=") ? value : "p99=" + value + "ms");
            }
            for (String value : values) {
                String name = option.longestName();
                tests.add(DynamicTest.dynamicTest(command + " " + name + " '" + value + "'", () -> {
                    List<String> args = new ArrayList<>(invocation(command));
                    args.addAll(List.of(name, value));
                    TestRuns.withWork(work, () -> {
                        CliResult result = CliResult.bench(args.toArray(String[]::new));
                        assertEquals(2, result.code(), String.join(" ", args) + "\n" + result);
                        String err = result.err().strip();
                        assertEquals(1, err.lines().count(), "one line: " + err);
                        assertTrue(err.startsWith("bench: "), err);
                        assertTrue(err.contains(name), "the refusal names " + name + ": " + err);
                    });
                    assertEquals(List.of(busy.resolve("result.json")), list(busy), "nothing written");
                }));
            }
        });
        assertTrue(tests.size() > 300, "every command's numeric options: " + tests.size() + " cases");
        return tests.stream();
    }

    /** A number for a default means a numeric option: it declares its kind, so the test above covers it. */
    @Test
    void everyOptionWithANumberForADefaultDeclaresItsKind() {
        List<String> undeclared = new ArrayList<>();
        forEachOption((command, option) -> {
            String defaultValue = option.defaultValue();
            if (defaultValue != null
                    && defaultValue.matches("[0-9]+(\\.[0-9]+)?[a-z]?")
                    && !ALSO_REFUSED.containsKey(option.paramLabel())) {
                undeclared.add(command + " " + option.longestName() + " (" + option.paramLabel() + ")");
            }
        });
        assertEquals(List.of(), undeclared, "give these a paramLabel of a kind in " + ALSO_REFUSED.keySet());
    }

    private interface OptionVisitor {
        void visit(String command, OptionSpec option);
    }

    private static void forEachOption(OptionVisitor visitor) {
        visit(new CommandLine(new Bench()), "", visitor);
    }

    private static void visit(CommandLine command, String path, OptionVisitor visitor) {
        if (!path.isEmpty()) {
            command.getCommandSpec().options().forEach(option -> visitor.visit(path, option));
        }
        command.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help")) {
                visit(sub, path.isEmpty() ? name : path + " " + name, visitor);
            }
        });
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.toList();
        }
    }
}
