package org.streambench.runner.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.streambench.db.DatabaseException;
import org.streambench.local.UserError;
import org.streambench.runner.leftovers.KilledTestRuns;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.MissingParameterException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        versionProvider = Bench.Version.class,
        description = {
            "streambench: which database, driven by which stream processing engine, handles continuous "
                    + "small binary records fastest?",
            ""
        },
        subcommands = {
            RunCommand.class,
            MatrixCommand.class,
            CapacityCommand.class,
            CeilingCommand.class,
            ReportCommand.class,
            QuickstartCommand.class,
            DbCommand.class,
            MonitorCommand.class,
            CalibrateCommand.class,
            YarnCommand.class,
            SwarmCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Bench {

    public static void main(String[] args) {
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, Charset.defaultCharset()), true);
        KilledTestRuns.stopWhatTheyLeftInThisCheckout(err);
        System.exit(execute(
                args, new PrintWriter(new OutputStreamWriter(System.out, Charset.defaultCharset()), true), err));
    }

    /** Runs the CLI in this JVM; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Bench());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, arguments) -> {
            err.println("bench: " + oneLine(problem(e)) + " (see: " + helpCommand(e.getCommandLine()) + ")");
            return 2;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof UserError) {
                err.println("bench: " + oneLine(e.getMessage()));
                return 2;
            }
            if (e instanceof DatabaseException) {
                err.println("bench: the run failed: " + e.getMessage());
                return 1;
            }
            Optional<String> diskFull = diskFull(e);
            if (diskFull.isPresent()) {
                err.println("bench: the disk is full: " + diskFull.get());
                return 1;
            }
            err.println("bench: unexpected failure: " + e);
            e.printStackTrace(err);
            return 1;
        });
        try {
            if (args.length > 0 && SPEC_COMMANDS.contains(args[0])) {
                useSpecFileDefaults(cli.getSubcommands().get(args[0]), args);
            }
        } catch (UserError e) {
            err.println("bench: " + oneLine(e.getMessage()));
            return 2;
        }
        return cli.execute(args);
    }

    /**
     * A refusal as one line: the control characters it echoes from the user's input (a newline in a
     * setting, a tab) written as escapes, so a message never spans lines or moves the terminal.
     */
    static String oneLine(String message) {
        StringBuilder line = new StringBuilder(message.length());
        message.codePoints().forEach(c -> {
            switch (c) {
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> {
                    if (Character.isISOControl(c)
                            || Character.getType(c) == Character.LINE_SEPARATOR
                            || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
                        line.append(String.format("\\u%04x", c));
                    } else {
                        line.appendCodePoint(c);
                    }
                }
            }
        });
        return line.toString();
    }

    /** The outermost message of {@code e}'s causes that says a disk is full (it names the file where it can). */
    static Optional<String> diskFull(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException
                    && String.valueOf(cause.getMessage()).contains(NO_SPACE)) {
                return Optional.of(cause.getMessage().lines().findFirst().orElse(NO_SPACE));
            }
        }
        return Optional.empty();
    }

    private static final String NO_SPACE = "No space left on device";

    /** The commands that take a YAML spec (--spec). */
    private static final Set<String> SPEC_COMMANDS = Set.of("run", "matrix", "quickstart");
    /** Options that are actions, not settings: they make no sense in a spec file. */
    private static final Set<String> NOT_IN_SPEC = Set.of("spec", "help", "version");

    /**
     * What was wrong with the command line. A missing argument is named with what it may be; for a
     * command that only groups others (bench, bench db, ...) a missing or mistyped command is
     * answered with the commands there are.
     */
    static String problem(ParameterException e) {
        CommandLine command = e.getCommandLine();
        if (e instanceof MissingParameterException missing
                && missing.getMissing().size() == 1
                && missing.getMissing().get(0) instanceof PositionalParamSpec argument) {
            String what = asClause(argument.description());
            return commandPath(command) + " needs " + argument.paramLabel() + (what.isEmpty() ? "" : ": " + what);
        }
        List<String> commands = command.getSubcommands().values().stream()
                .filter(c -> !c.getCommandSpec().usageMessage().hidden())
                .map(CommandLine::getCommandName)
                .distinct()
                .toList();
        if (commands.isEmpty()) {
            return e.getMessage();
        }
        String name = commandPath(command);
        if (e instanceof UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()
                && !unmatched.getUnmatched().get(0).startsWith("-")) {
            return "'" + unmatched.getUnmatched().get(0) + "' is not a command of " + name + "; use one of: "
                    + String.join(", ", commands);
        }
        if (e.getClass() == ParameterException.class
                && !command.getParseResult().hasSubcommand()) {
            return name + " needs a command: " + String.join(", ", commands);
        }
        return e.getMessage();
    }

    /** "A matrix folder." as a clause after a colon: "a matrix folder" (but "MongoDB ..." stays). */
    private static String asClause(String[] description) {
        String text = String.join(" ", description).strip();
        if (text.endsWith(".")) {
            text = text.substring(0, text.length() - 1);
        }
        String firstWord = text.split(" ", 2)[0];
        if (firstWord.isEmpty() || firstWord.substring(1).chars().anyMatch(Character::isUpperCase)) {
            return text;
        }
        return Character.toLowerCase(text.charAt(0)) + text.substring(1);
    }

    /** E.g. "./bench db start --help" for the command whose input was bad. */
    static String helpCommand(CommandLine command) {
        return "./" + commandPath(command) + " --help";
    }

    /** E.g. "bench db start". */
    private static String commandPath(CommandLine command) {
        List<String> names = new ArrayList<>();
        for (CommandLine c = command; c != null && c.getParent() != null; c = c.getParent()) {
            names.add(0, c.getCommandName());
        }
        names.add(0, "bench");
        return String.join(" ", names);
    }

    /**
     * A YAML spec given with --spec supplies defaults for the command's options; the command line
     * still wins. Keys are the option names without --; options that take KEY=VALUE pairs
     * (engine-setting, db-setting) take a mapping.
     */
    private static void useSpecFileDefaults(CommandLine command, String[] args) {
        String file = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--spec") && i + 1 < args.length) {
                file = args[i + 1];
            } else if (args[i].startsWith("--spec=")) {
                file = args[i].substring("--spec=".length());
            }
        }
        if (file == null) {
            return;
        }
        Map<String, Object> values = readYaml(Path.of(file));
        Map<String, OptionSpec> options = new TreeMap<>();
        command.getCommandSpec()
                .options()
                .forEach(o -> options.put(o.longestName().substring(2), o));
        Set<String> allowed = new TreeSet<>(options.keySet());
        allowed.removeAll(NOT_IN_SPEC);
        Map<String, Map<String, String>> mappings = new TreeMap<>();
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            String key = entry.getKey();
            if (!allowed.contains(key)) {
                throw new UserError("spec " + file + ": unknown key '" + key + "'; keys are the "
                        + command.getCommandName() + " options without --: " + allowed);
            }
            boolean takesPairs = options.get(key).typeInfo().isMap();
            if (takesPairs != (entry.getValue() instanceof Map)) {
                throw new UserError("spec " + file + ": '" + key + "' must be "
                        + (takesPairs
                                ? "a mapping of names to values, e.g. " + key + ": {name: value}"
                                : "a single value, not a list or mapping"));
            }
            if (entry.getValue() instanceof List) {
                throw new UserError("spec " + file + ": '" + key + "' must be a single value, not a list");
            }
            if (entry.getValue() == null || entry.getValue().toString().isBlank()) {
                throw new UserError("spec " + file + ": '" + key + "' has no value; give one or leave the key out");
            }
            if (takesPairs) {
                Map<String, String> pairs = new LinkedHashMap<>();
                ((Map<?, ?>) entry.getValue()).forEach((k, v) -> pairs.put(String.valueOf(k), String.valueOf(v)));
                mappings.put(key, pairs);
            }
        }
        command.setDefaultValueProvider(option -> {
            if (!(option instanceof OptionSpec o) || o.typeInfo().isMap()) {
                return option.defaultValue();
            }
            Object value = values.get(o.longestName().substring(2));
            return value != null ? value.toString() : option.defaultValue();
        });
        if (command.getCommand() instanceof SpecFileMappings receiver) {
            receiver.useSpecFileMappings(mappings);
        }
    }

    /** A command whose KEY=VALUE options can also come from a spec file's mappings (the command line wins per key). */
    interface SpecFileMappings {
        void useSpecFileMappings(Map<String, Map<String, String>> mappingsByOption);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> readYaml(Path file) {
        if (!Files.exists(file)) {
            throw new UserError("spec file " + file + " does not exist");
        }
        if (Files.isDirectory(file)) {
            throw new UserError("spec file " + file + " is a folder; give a YAML file of option names and values");
        }
        if (!Files.isRegularFile(file)) {
            throw new UserError(
                    "spec file " + file + " is not a regular file; give a YAML file of option names and values");
        }
        try {
            ObjectMapper yaml =
                    new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            Object parsed = yaml.readValue(file.toFile(), Object.class);
            if (!(parsed instanceof Map)) {
                throw new UserError("spec " + file + " must be a YAML mapping of option names to values");
            }
            return (Map<String, Object>) parsed;
        } catch (IOException e) {
            throw new UserError("spec " + file + " is not valid YAML: " + yamlProblem(e));
        }
    }

    /** Where the YAML parser stopped and why, e.g. "line 2, column 1: found character '\t(TAB)' that cannot start any token". */
    private static String yamlProblem(IOException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
                return "line " + (marked.getProblemMark().getLine() + 1) + ", column "
                        + (marked.getProblemMark().getColumn() + 1) + ": " + marked.getProblem()
                        + (marked.getContext() == null ? "" : " (" + marked.getContext() + ")");
            }
        }
        if (e instanceof JsonProcessingException json && json.getLocation() != null) {
            return "line " + json.getLocation().getLineNr() + ", column "
                    + json.getLocation().getColumnNr() + ": "
                    + json.getOriginalMessage().lines().findFirst().orElse("");
        }
        return e.getMessage().lines().findFirst().orElse("");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Bench.class.getPackage().getImplementationVersion();
            return new String[] {"streambench " + (version == null ? "(development build)" : version)};
        }
    }
}
