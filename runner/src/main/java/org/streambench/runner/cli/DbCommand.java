package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.streambench.local.Home;
import org.streambench.runner.experiment.ConnectionOptions;
import org.streambench.runner.experiment.Names.LocalServerNames;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "db",
        mixinStandardHelpOptions = true,
        description =
                "Real local database servers, run from binaries that Maven Central ships; data under work/servers/.",
        subcommands = {DbCommand.Start.class, DbCommand.Stop.class, DbCommand.Status.class})
final class DbCommand {

    @Command(
            name = "start",
            mixinStandardHelpOptions = true,
            description = "Start a local server in the background (no-op if it runs).")
    static final class Start implements Callable<Integer> {
        @Parameters(
                paramLabel = "DATABASE",
                completionCandidates = LocalServerNames.class,
                description = "${COMPLETION-CANDIDATES}")
        String database;

        @Option(
                names = "--port",
                paramLabel = "PORT",
                description = "Port (default: the database's own; bench db status lists them).")
        String port;

        @Option(
                names = "--profile",
                defaultValue = "default",
                description = "Durability: default (the vendor's), fast or durable (see bench run --help, --db-profile)"
                        + " (default: ${DEFAULT-VALUE}).")
        String profile;

        @Spec
        CommandSpec command;

        @Override
        public Integer call() {
            PrintWriter out = command.commandLine().getOut();
            int chosen = port != null
                    ? ConnectionOptions.localServerPort("--port", port, database)
                    : LocalServers.defaultPort(database);
            DbProfile chosenProfile = DbProfile.parse("--profile", profile);
            LocalServers servers = new LocalServers(Home.work(), out);
            ServerState state = servers.start(database, chosen, "--port", chosenProfile);
            out.println(database + " url: " + state.settings().get("url") + "  (" + state.version() + ")");
            return 0;
        }
    }

    @Command(
            name = "stop",
            mixinStandardHelpOptions = true,
            description = "Stop a local server by its PID; 'all' stops every one.")
    static final class Stop implements Callable<Integer> {
        @Parameters(paramLabel = "DATABASE", description = "a database with a local server, or all")
        String database;

        @Spec
        CommandSpec command;

        @Override
        public Integer call() {
            PrintWriter out = command.commandLine().getOut();
            LocalServers servers = new LocalServers(Home.work(), out);
            List<String> targets = database.equals("all") ? LocalServers.supported() : List.of(database);
            for (String target : targets) {
                out.println(target + (servers.stop(target) ? " stopped" : " was not running"));
            }
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Which local servers run, where.")
    static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec command;

        @Override
        public Integer call() {
            PrintWriter out = command.commandLine().getOut();
            LocalServers servers = new LocalServers(Home.work(), out);
            for (String database : LocalServers.supported()) {
                Optional<ServerState> state = servers.running(database);
                out.println(state.map(s -> String.format(
                                "%-10s running  pid %s  port %d  %s  %s%s%s",
                                database,
                                s.alive().stream()
                                        .map(p -> Long.toString(p.pid()))
                                        .collect(Collectors.joining(",")),
                                s.port(),
                                s.settings().get("url"),
                                s.version(),
                                s.profile() == DbProfile.DEFAULT
                                        ? ""
                                        : "  (" + s.profile().cliName() + " profile)",
                                LocalServers.leftByDeadRun(s)
                                        ? "  (left by a killed run, pid "
                                                + s.owner().pid() + "; ./bench db stop " + database + " stops it)"
                                        : ""))
                        .orElse(String.format(
                                "%-10s stopped  (default port %d)", database, LocalServers.defaultPort(database))));
            }
            return 0;
        }
    }
}
