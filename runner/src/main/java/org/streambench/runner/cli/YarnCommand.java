package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.streambench.local.Home;
import org.streambench.runner.experiment.Inputs;
import org.streambench.runner.yarn.LocalYarn;
import org.streambench.runner.yarn.YarnCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "yarn",
        mixinStandardHelpOptions = true,
        description = "A real pseudo-distributed YARN (ResourceManager + NodeManager) from the Hadoop "
                + "jars; configuration, data and logs under work/yarn/.",
        subcommands = {YarnCommand.Start.class, YarnCommand.Stop.class, YarnCommand.Status.class})
final class YarnCommand {

    @Command(
            name = "start",
            mixinStandardHelpOptions = true,
            description = "Start the local YARN in the background on 127.0.0.1 (no-op if it runs); returns once "
                    + "the NodeManager has registered.")
    static final class Start implements Callable<Integer> {
        @Option(
                names = "--port",
                paramLabel = "PORT",
                description = "First of the " + LocalYarn.PORT_COUNT + " consecutive ports YARN binds (default: "
                        + LocalYarn.DEFAULT_PORT + "; the ResourceManager's web UI and REST API is the fifth).")
        String port;

        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            int chosen = port != null ? Inputs.port("--port", port) : LocalYarn.DEFAULT_PORT;
            new LocalYarn(Home.work(), command.commandLine().getOut()).start(chosen);
            return 0;
        }
    }

    @Command(
            name = "stop",
            mixinStandardHelpOptions = true,
            description = "Stop the local YARN by its PIDs: NodeManager and its containers, then ResourceManager.")
    static final class Stop implements Callable<Integer> {
        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = command.commandLine().getOut();
            out.println(new LocalYarn(Home.work(), out).stop() ? "yarn stopped" : "yarn was not running");
            return 0;
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Whether the YARN the suite would use answers: its version, running nodes, free memory"
                    + " and applications.")
    static final class Status implements Callable<Integer> {
        @Option(
                names = "--yarn-conf",
                paramLabel = "DIR",
                description = "A YARN cluster's configuration folder (its yarn-site.xml); default: $HADOOP_CONF_DIR,"
                        + " else the suite's local YARN.")
        Path yarnConf;

        @Spec
        CommandSpec command;

        @Override
        public Integer call() {
            PrintWriter out = command.commandLine().getOut();
            LocalYarn local = new LocalYarn(Home.work(), out);
            Optional<YarnCluster> chosen = YarnCluster.chosen(Optional.ofNullable(yarnConf), System.getenv(), local);
            if (chosen.isEmpty()) {
                out.println("yarn stopped (start the suite's local YARN with ./bench yarn start)");
                return 0;
            }
            YarnCluster cluster = chosen.get();
            YarnCluster.Info info = cluster.info();
            out.println("yarn " + info.state().toLowerCase(Locale.ROOT) + "  " + cluster.webapp() + "  ("
                    + cluster.description() + ")");
            out.println("hadoop " + info.hadoopVersion() + ", " + info.runningNodes() + " node(s) running, "
                    + info.availableMemoryMb() + " MB free, " + info.runningApps() + " application(s) running");
            local.running()
                    .filter(running -> cluster.conf().equals(local.conf()))
                    .ifPresent(running -> out.println("local processes:"
                            + " ResourceManager pid "
                            + running.resourceManager().pid()
                            + (running.nodeManager() == null
                                    ? ""
                                    : ", NodeManager pid "
                                            + running.nodeManager().pid())));
            return 0;
        }
    }
}
