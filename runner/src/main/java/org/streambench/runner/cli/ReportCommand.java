package org.streambench.runner.cli;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import org.streambench.db.Databases;
import org.streambench.local.UserError;
import org.streambench.report.Report;
import org.streambench.runner.experiment.Engines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Render DIR/report/: index.html (the study's figures and Tables 1-4 next to the study's values; opens offline), "
                    + "results.csv (one row per run) and the figures as PNG files.",
            "Reads only the result.json files under DIR (a matrix folder or any folder of runs, or a .zip of one), so results "
                    + "from another machine render the same way."
        },
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:the report was written", "2:DIR holds no results (nothing written)"})
final class ReportCommand implements Callable<Integer> {

    @Parameters(
            paramLabel = "DIR",
            description =
                    "A matrix folder or a folder of run folders, or a .zip archive of one (as study/ keeps them).")
    Path dir;

    @Option(
            names = "--out",
            paramLabel = "OUT",
            description = "Where the report goes (default: DIR/report/; for DIR.zip, DIR-report/ beside it).")
    Path out;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        if (Files.isRegularFile(dir) && dir.getFileName().toString().endsWith(".zip")) {
            try (FileSystem archive = FileSystems.newFileSystem(dir)) {
                String name = dir.getFileName().toString();
                return render(
                        archiveRoot(archive),
                        out != null
                                ? out
                                : dir.resolveSibling(name.substring(0, name.length() - ".zip".length()) + "-report"));
            } catch (ZipException | ProviderNotFoundException e) {
                throw new UserError(dir + " is not a readable zip archive: " + e.getMessage());
            }
        }
        return render(dir, out != null ? out : dir.resolve(Report.FOLDER));
    }

    private int render(Path results, Path target) throws IOException {
        Report report;
        try {
            report = Report.of(results, new Report.Order(Engines.names(), Databases.names()));
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        Path index = report.write(target);
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

    /** The archive's one top-level folder (a zipped matrix folder), else its root. */
    private static Path archiveRoot(FileSystem archive) throws IOException {
        Path root = archive.getPath("/");
        try (Stream<Path> entries = Files.list(root)) {
            List<Path> all = entries.toList();
            return all.size() == 1 && Files.isDirectory(all.get(0)) ? all.get(0) : root;
        }
    }
}
