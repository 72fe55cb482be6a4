package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.streambench.local.Home;
import org.streambench.local.UserError;
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
        subcommands = {
            MonitorCommand.Start.class,
            MonitorCommand.Stop.class,
            MonitorCommand.Status.class,
            MonitorCommand.Scrape.class
        })
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
            new ScrapeTargets(Home.work())
                    .exporters()
                    .forEach(exporter -> out.println("exporter " + exporter.name() + "  " + exporter.url()));
            return 0;
        }
    }

    @Command(
            name = "scrape",
            mixinStandardHelpOptions = true,
            description = {
                "Exporters the suite's Prometheus scrapes beside the jobs, kept until removed: for a database"
                        + " the suite did not start (--db-url), the exporter on its machine, e.g. Debian's"
                        + " prometheus-postgres-exporter (:9187), prometheus-mysqld-exporter (:9104),"
                        + " prometheus-redis-exporter (:9121) or prometheus-node-exporter (:9100).",
                "Without options: the list."
            })
    static final class Scrape implements Callable<Integer> {
        @Option(
                names = "--add",
                paramLabel = "NAME=URL",
                description = "Scrape URL as exporter NAME, e.g. db=http://dbhost:9187/metrics (repeatable).")
        List<String> add = new ArrayList<>();

        @Option(names = "--remove", paramLabel = "NAME", description = "Stop scraping exporter NAME (repeatable).")
        List<String> remove = new ArrayList<>();

        @Spec
        CommandSpec command;

        @Override
        public Integer call() {
            PrintWriter out = command.commandLine().getOut();
            ScrapeTargets targets = new ScrapeTargets(Home.work());
            List<ScrapeTargets.Exporter> added =
                    add.stream().map(ScrapeTargets::parseExporter).toList();
            Set<String> known = new TreeSet<>();
            targets.exporters().forEach(exporter -> known.add(exporter.name()));
            for (String name : remove) {
                if (!known.contains(name)) {
                    throw new UserError("no exporter named '" + name + "' to remove; the suite scrapes "
                            + (known.isEmpty() ? "none" : String.join(", ", known)));
                }
            }
            remove.forEach(name -> {
                targets.removeExporter(name);
                out.println("removed exporter " + name);
            });
            added.forEach(exporter -> {
                targets.addExporter(exporter);
                out.println("scraping exporter " + exporter.name() + " at " + exporter.url() + " (label exporter=\""
                        + exporter.name() + "\")");
            });
            List<ScrapeTargets.Exporter> now = targets.exporters();
            if (add.isEmpty() && remove.isEmpty()) {
                out.println(
                        now.isEmpty() ? "no exporters (add one with --add NAME=URL)" : now.size() + " exporter(s):");
                now.forEach(exporter -> out.println("  " + exporter.name() + "  " + exporter.url()));
            }
            return 0;
        }
    }
}
