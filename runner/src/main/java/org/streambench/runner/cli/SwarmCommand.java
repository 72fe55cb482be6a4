package org.streambench.runner.cli;

import java.util.concurrent.Callable;
import org.streambench.local.Home;
import org.streambench.runner.swarm.Swarm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "swarm",
        mixinStandardHelpOptions = true,
        description = {
            "The study's cluster on a Docker Swarm: the stacks of docker-swarm/ (see its README for node labels "
                    + "and secrets), deployed as streambench-NAME. Run on a Swarm manager.",
            "Deploy base and monitoring first, then one database at a time."
        },
        subcommands = {SwarmCommand.Deploy.class, SwarmCommand.Remove.class, SwarmCommand.Stacks.class})
final class SwarmCommand {

    private static Swarm swarm(CommandSpec command) {
        return new Swarm(
                Home.root().resolve("docker-swarm"), command.commandLine().getOut());
    }

    /** A subcommand that acts on one stack, named on the command line. */
    abstract static class OnOneStack implements Callable<Integer> {
        @Parameters(
                paramLabel = "NAME",
                description = "The stack, base, monitoring or a database; bench swarm stacks lists them.")
        String name;

        @Spec
        CommandSpec command;

        abstract int on(Swarm swarm, String stack) throws Exception;

        @Override
        public Integer call() throws Exception {
            return on(swarm(command), name);
        }
    }

    @Command(
            name = "deploy",
            mixinStandardHelpOptions = true,
            description = "docker stack deploy of docker-swarm/NAME.yml as streambench-NAME "
                    + "(creates the overlay network 'streambench' if it is missing).")
    static final class Deploy extends OnOneStack {
        @Override
        int on(Swarm swarm, String stack) throws Exception {
            return swarm.deploy(stack);
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
        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            swarm(command).stacks().forEach(command.commandLine().getOut()::println);
            return 0;
        }
    }
}
