package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.streambench.local.Home;
import org.streambench.runner.experiment.Inputs;
import org.streambench.runner.monitor.Prometheus;
import org.streambench.runner.monitor.ScrapeTargets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "monitor",
        mixinStandardHelpOptions = true,
        description = "A real Prometheus that scrapes every running job each second; data under work/monitor/.",
        subcommands = {MonitorCommand.Start.class, MonitorCommand.Stop.class, MonitorCommand.Status.class})
final class MonitorCommand {

    @Command(
            name = "start",
            mixinStandardHelpOptions = true,
            description = "Start Prometheus in the background on 127.0.0.1 (no-op if it runs).")
    static final class Start implements Callable<Integer> {
        @Option(
                names = "--port",
                paramLabel = "PORT",
                description = "Port of Prometheus (default: " + Prometheus.DEFAULT_PORT + ").")
        String port;

        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            int chosen = port != null ? Inputs.port("--port", port) : Prometheus.DEFAULT_PORT;
            new Prometheus(Home.work(), command.commandLine().getOut()).start(chosen);
            return 0;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop the suite's Prometheus by its PID.")
    static final class Stop implements Callable<Integer> {
        @Spec
        CommandSpec command;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = command.commandLine().getOut();
            out.println(new Prometheus(Home.work(), out).stop() ? "prometheus stopped" : "prometheus was not running");
            return 0;
        }
    }

    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Whether Prometheus runs, where, and what it scrapes.")
    static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec command;

        @Override
        public Integer call() {
            PrintWriter out = command.commandLine().getOut();
            Optional<Prometheus.Running> running = new Prometheus(Home.work(), out).running();
            int jobs = new ScrapeTargets(Home.work()).removeEnded();
            out.println(running.map(r -> "prometheus running  pid " + r.pid() + "  " + r.url())
                    .orElse("prometheus stopped"));
            out.println(jobs + " job endpoint(s) to scrape");
            return 0;
        }
    }
}
