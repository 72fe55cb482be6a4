package org.streambench.runner.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.model.RunDocument.Calibration;
import org.streambench.runner.calibration.MachineCalibration;
import org.streambench.runner.experiment.Inputs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "calibrate",
        mixinStandardHelpOptions = true,
        description = {
            "Measure this machine's own limits: 8 KB writes each followed by fdatasync, one after another"
                    + " (a database that commits every record cannot commit faster), a 64 MB sequential write,"
                    + " and how fast one core sorts a million longs. Kept in work/calibration.json; every later run's result.json"
                    + " carries it (environment.calibration), and a run that finds none measures briefly itself."
        })
final class CalibrateCommand implements Callable<Integer> {

    private static final int LONGEST_SECONDS = 600;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            defaultValue = "5s",
            description = "How long the synced writes are measured, 1s to 10m (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "Where to measure (default: the work folder, where the suite's servers keep their data).")
    Path dir;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        int seconds = Inputs.seconds("--duration", duration);
        if (seconds < 1 || seconds > LONGEST_SECONDS) {
            throw new UserError("--duration '" + duration + "' is out of range; give 1s to 10m");
        }
        if (dir != null && !Files.isDirectory(dir)) {
            throw new UserError("--dir " + dir + " is not a folder; give one on the disk to measure");
        }
        Path folder = dir != null ? dir : Files.createDirectories(Home.work());
        PrintWriter out = command.commandLine().getOut();
        out.printf("measuring in %s for about %d s ...%n", folder.toAbsolutePath(), seconds + 1);
        Calibration calibration = MachineCalibration.measure(folder, seconds);
        Path file = MachineCalibration.file(Home.work());
        MachineCalibration.store(calibration, file);
        out.println(MachineCalibration.describe(calibration));
        out.println("kept in " + file + ": every run's result.json carries it (environment.calibration)");
        return 0;
    }
}
