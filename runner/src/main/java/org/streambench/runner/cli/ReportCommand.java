package org.streambench.runner.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.streambench.db.Databases;
import org.streambench.local.UserError;
import org.streambench.report.Report;
import org.streambench.runner.experiment.Engines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Render DIR/report/: index.html (the study's figures and Tables 1-4 next to the study's values; opens offline), "
                    + "results.csv (one row per run) and the figures as PNG files.",
            "Reads only the result.json files under DIR (a matrix folder or any folder of runs), so results from another "
                    + "machine render the same way."
        },
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:the report was written", "2:DIR holds no results (nothing written)"})
final class ReportCommand implements Callable<Integer> {

    @Parameters(paramLabel = "DIR", description = "A matrix folder or a folder of run folders.")
    Path dir;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        Report report;
        try {
            report = Report.of(dir, new Report.Order(Engines.names(), Databases.names()));
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        Path index = report.write();
        String unfinished =
                report.planned() == null || report.planned().missing().isEmpty()
                        ? ""
                        : " (UNFINISHED MATRIX: " + report.planned().missing().size() + " of "
                                + report.planned().planned() + " planned experiments have no result; resume it with "
                                + "./bench matrix --resume " + dir + ")";
        command.commandLine()
                .getOut()
                .println("report of " + report.runs().size() + " runs" + unfinished + ": " + index);
        return 0;
    }
}
