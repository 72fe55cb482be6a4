package org.streambench.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.streambench.db.DatabaseException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;

@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = Bench.Version.class,
        description = {"streambench: which database, driven by which stream processing engine, handles continuous "
                + "small binary records fastest?", ""},
        subcommands = {RunCommand.class, QuickstartCommand.class, DbCommand.class, CommandLine.HelpCommand.class})
public final class Bench {

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the CLI in this JVM; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new Bench());
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((e, arguments) -> {
            err.println("bench: " + e.getMessage() + " (see: ./bench " + e.getCommandLine().getCommandName() + " --help)");
            return 2;
        });
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof UserError) {
                err.println("bench: " + e.getMessage());
                return 2;
            }
            if (e instanceof DatabaseException) {
                err.println("bench: the run failed: " + e.getMessage());
                return 1;
            }
            err.println("bench: unexpected failure: " + e);
            e.printStackTrace(err);
            return 1;
        });
        try {
            useSpecFileDefaults(cli.getSubcommands().get("run"), args);
        } catch (UserError e) {
            err.println("bench: " + e.getMessage());
            return 2;
        }
        return cli.execute(args);
    }

    /** A YAML spec given with --spec supplies defaults for the run options; the command line still wins. */
    private static void useSpecFileDefaults(CommandLine run, String[] args) {
        if (args.length == 0 || !args[0].equals("run")) {
            return;
        }
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
        Set<String> known = run.getCommandSpec().options().stream().map(OptionSpec::longestName)
                .map(name -> name.substring(2)).collect(Collectors.toCollection(TreeSet::new));
        for (String key : values.keySet()) {
            if (!known.contains(key) || key.equals("spec")) {
                throw new UserError("spec " + file + ": unknown key '" + key + "'; keys are the run options without --: " + known);
            }
        }
        run.setDefaultValueProvider(option -> {
            if (!(option instanceof OptionSpec o)) {
                return null;
            }
            Object value = values.get(o.longestName().substring(2));
            return value != null ? value.toString() : option.defaultValue();
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readYaml(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new UserError("spec file " + file + " does not exist");
        }
        try {
            Object parsed = new ObjectMapper(new YAMLFactory()).readValue(file.toFile(), Object.class);
            if (!(parsed instanceof Map)) {
                throw new UserError("spec " + file + " must be a YAML mapping of option names to values");
            }
            return (Map<String, Object>) parsed;
        } catch (IOException e) {
            throw new UserError("spec " + file + " is not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Bench.class.getPackage().getImplementationVersion();
            return new String[] {"streambench " + (version == null ? "(development build)" : version)};
        }
    }
}
