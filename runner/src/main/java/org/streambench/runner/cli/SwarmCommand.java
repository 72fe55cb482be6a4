package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.runner.monitor.ScrapeTargets;
import org.streambench.runner.swarm.LocalSwarm;
import org.streambench.runner.swarm.Swarm;
import org.streambench.runner.swarm.SwarmImages;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "swarm",
        mixinStandardHelpOptions = true,
        description = {
            "The study's cluster on a Docker Swarm: the stacks of docker-swarm/, deployed as streambench-NAME.",
            "On this machine: bench swarm up (a Docker engine and a swarm of one node of the suite's own, or with"
                    + " --use-existing on an engine you run), bench swarm images (built offline), bench swarm deploy"
                    + " NAME --single-node, ..., bench swarm down.",
            "On a real cluster's manager: bench swarm deploy NAME (see docker-swarm/README.md for node labels and"
                    + " secrets); deploy base and monitoring first, then one database at a time."
        },
        subcommands = {
            SwarmCommand.Up.class,
            SwarmCommand.Down.class,
            SwarmCommand.Status.class,
            SwarmCommand.Images.class,
            SwarmCommand.Deploy.class,
            SwarmCommand.Remove.class,
            SwarmCommand.Stacks.class
        })
final class SwarmCommand {

    /** The single-node stacks: docker-swarm/single-node/NAME.yml. */
    static final String SINGLE_NODE = "single-node";
    /** How long deploy waits for a stack to be healthy. */
    static final long HEALTHY_SECONDS = 600;

    private static LocalSwarm local(CommandSpec command) {
        return new LocalSwarm(Home.work(), command.commandLine().getOut());
    }

    private static Swarm swarm(CommandSpec command, boolean singleNode) {
        var folder = Home.root().resolve("docker-swarm");
        return new Swarm(
                singleNode ? folder.resolve(SINGLE_NODE) : folder,
                Swarm.host(local(command)),
                new ScrapeTargets(Home.work()),
                command.commandLine().getOut());
    }

    @Command(
            name = "up",
            mixinStandardHelpOptions = true,
            description = {
                "Start a Docker engine of the suite's own (work/swarm/) and make it a swarm of one node on 127.0.0.1,"
                        + " with the overlay network and the stacks' secrets (passwords generated, kept in"
                        + " work/swarm/). Refuses when another dockerd runs.",
                "With --use-existing: use an engine that runs already instead, and record what is made on it (a"
                        + " swarm of one node if it is in none, the network, the secrets); down removes only that"
                        + " and the suite's stacks, and never stops the engine."
            })
    static final class Up implements Callable<Integer> {
        @Option(
                names = "--use-existing",
                description = "Use the Docker engine at --docker-host, which the suite did not start.")
        boolean useExisting;

        @Option(
                names = "--docker-host",
                paramLabel = "URL",
                description = "With --use-existing: the engine (default: $DOCKER_HOST, else "
                        + LocalSwarm.DEFAULT_DOCKER_HOST + ").")
        String dockerHost;

        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            if (!useExisting) {
                if (dockerHost != null) {
                    throw new UserError("--docker-host names an engine for --use-existing; without it bench swarm up"
                            + " starts an engine of the suite's own");
                }
                local(command).up();
                return 0;
            }
            String host = dockerHost != null ? dockerHost : System.getenv("DOCKER_HOST");
            local(command).useExisting(host == null || host.isBlank() ? LocalSwarm.DEFAULT_DOCKER_HOST : host);
            return 0;
        }
    }

    @Command(
            name = "down",
            mixinStandardHelpOptions = true,
            description = {
                "Remove the suite's stacks and their volumes, leave the swarm, stop its Docker engine and remove its"
                        + " bridges; images stay for the next up.",
                "After up --use-existing: remove the suite's stacks and their volumes and what up made on that engine"
                        + " (secrets, network, the swarm if it made one); the engine runs on."
            })
    static final class Down implements Callable<Integer> {
        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = command.commandLine().getOut();
            swarm(command, true).forgetExporters();
            swarm(command, false).forgetExporters();
            out.println(local(command)
                    .down()
                    .map(was -> was.ownEngine()
                            ? "swarm down: no container, network or engine of the suite runs"
                            : "swarm down: the suite's stacks and what it made on " + was.host()
                                    + " are gone; that engine runs on")
                    .orElse("the suite's swarm was not running"));
            return 0;
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Which Docker engine the suite's swarm is on (its own, or one up --use-existing named, and"
                    + " what up made there) and the suite's stacks with their services' replicas.")
    static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            local(command).status().forEach(command.commandLine().getOut()::println);
            return 0;
        }
    }

    @Command(
            name = "images",
            mixinStandardHelpOptions = true,
            description = "Build the single-node stacks' images offline in the suite's engine: Debian base images"
                    + " with debootstrap, then docker-swarm/images/NAME/Dockerfile as local/streambench-NAME.")
    static final class Images implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", arity = "0..*", description = "The images to build (default: all).")
        List<String> names = List.of();

        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = command.commandLine().getOut();
            double seconds = SwarmImages.of(Home.root().resolve("docker-swarm").resolve("images"), local(command), out)
                    .build(names);
            out.printf(Locale.ROOT, "images ready in %.1f s%n", seconds);
            return 0;
        }
    }

    /** A subcommand that acts on one stack, named on the command line. */
    abstract static class OnOneStack implements Callable<Integer> {
        @Parameters(
                paramLabel = "NAME",
                description = "The stack, base, monitoring or a database; bench swarm stacks lists them.")
        String name;

        @Option(
                names = "--single-node",
                description = "The stack's single-node profile (docker-swarm/single-node/NAME.yml), for the suite's"
                        + " own swarm of one node.")
        boolean singleNode;

        @Spec
        CommandSpec command;

        abstract int on(Swarm swarm, String stack) throws Exception;

        @Override
        public Integer call() throws Exception {
            return on(swarm(command, singleNode), name);
        }
    }

    @Command(
            name = "deploy",
            mixinStandardHelpOptions = true,
            description = "docker stack deploy of docker-swarm/NAME.yml as streambench-NAME (creates the overlay"
                    + " network 'streambench' if it is missing); with --single-node it waits until every service"
                    + " is healthy.")
    static final class Deploy extends OnOneStack {
        @Override
        int on(Swarm swarm, String stack) throws Exception {
            int code = swarm.deploy(stack);
            if (code == 0 && singleNode) {
                double seconds = swarm.awaitHealthy(stack, HEALTHY_SECONDS);
                command.commandLine()
                        .getOut()
                        .printf(Locale.ROOT, "stack %s%s healthy after %.1f s%n", Swarm.STACK_PREFIX, stack, seconds);
            }
            return code;
        }
    }

    @Command(name = "rm", mixinStandardHelpOptions = true, description = "docker stack rm of streambench-NAME.")
    static final class Remove extends OnOneStack {
        @Override
        int on(Swarm swarm, String stack) throws Exception {
            return swarm.remove(stack);
        }
    }

    @Command(name = "stacks", mixinStandardHelpOptions = true, description = "The stacks in docker-swarm/.")
    static final class Stacks implements Callable<Integer> {
        @Option(names = "--single-node", description = "The single-node profiles instead.")
        boolean singleNode;

        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            swarm(command, singleNode).stacks().forEach(command.commandLine().getOut()::println);
            return 0;
        }
    }
}
