package org.streambench.runner.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import java.util.zip.ZipException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.Databases;
import org.streambench.local.UserError;
import org.streambench.report.CapacityReport;
import org.streambench.report.Comparison;
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

    @Option(
            names = "--rank-emulators",
            description = "Rank databases measured against an emulator (the local MongoDB) in Tables 1-4 too;"
                    + " by default they are shown, marked, but never take a place.")
    boolean rankEmulators;

    @Option(
            names = "--compare",
            paramLabel = "OTHER",
            description =
                    "Compare with another run of the same matrix (a folder or a .zip): per-cell ratios, the same"
                            + " fastest engine and best database, rank correlations; a section of the report and comparison.csv.")
    Path compare;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        if (compare != null && !Files.exists(compare)) {
            throw new UserError("--compare " + compare + " does not exist; give a matrix folder or a .zip of one");
        }
        try (Results results = Results.open(dir);
                Results other = compare == null ? null : Results.open(compare)) {
            Path target = out != null ? out : results.defaultOut();
            PrintWriter console = command.commandLine().getOut();
            CapacityReport capacity = CapacityReport.of(results.root());
            if (!capacity.isEmpty()) {
                console.println("capacity searches: " + capacity.write(target));
                if (!hasResultsBeside(results.root(), capacity)) {
                    return 0;
                }
            }
            Report report = read(results, dir);
            Report otherReport = other == null ? null : read(other, compare);
            Path index = report.write(target, otherReport, compare == null ? null : compare.toString());
            String unfinished = report.planned() == null
                            || report.planned().missing().isEmpty()
                    ? ""
                    : " (UNFINISHED MATRIX: " + report.planned().missing().size() + " of "
                            + report.planned().planned() + " planned experiments have no result; resume it with "
                            + "./bench matrix --resume " + dir + ")";
            console.println(report.rankingSummary());
            if (otherReport != null) {
                console.println(Comparison.of(report, otherReport).summary());
            }
            console.println("report of " + report.runs().size() + " runs" + unfinished + ": " + index);
            return 0;
        }
    }

    /** Whether runs lie beside the capacity searches (their steps aside): then the usual report is written too. */
    private static boolean hasResultsBeside(Path root, CapacityReport capacity) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().equals("result.json"))
                    .anyMatch(p -> capacity.folders().stream().noneMatch(p::startsWith));
        }
    }

    /** The databases that store data but that the study did not measure (noop, the harness's ceiling, has its own note). */
    private static List<String> beyondStudy() {
        return Databases.inOrder().stream()
                .filter(provider -> !provider.inStudy() && provider.storesData())
                .map(DatabaseProvider::name)
                .toList();
    }

    private Report read(Results results, Path given) throws IOException {
        try {
            return Report.of(
                    results.root(),
                    new Report.Order(Engines.names(), Databases.names(), beyondStudy()),
                    new Report.Options(rankEmulators));
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage().replace(results.root().toString(), given.toString()));
        }
    }

    /** A folder of results, or a zip archive of one read in place; closing it closes the archive. */
    private record Results(Path root, Path defaultOut, FileSystem archive) implements AutoCloseable {

        static Results open(Path given) throws IOException {
            if (Files.isRegularFile(given) && given.getFileName().toString().endsWith(".zip")) {
                FileSystem archive;
                try {
                    archive = FileSystems.newFileSystem(given);
                } catch (ZipException | ProviderNotFoundException e) {
                    throw new UserError(given + " is not a readable zip archive: " + e.getMessage());
                }
                String name = given.getFileName().toString();
                return new Results(
                        archiveRoot(archive),
                        given.resolveSibling(name.substring(0, name.length() - ".zip".length()) + "-report"),
                        archive);
            }
            return new Results(given, given.resolve(Report.FOLDER), null);
        }

        @Override
        public void close() throws IOException {
            if (archive != null) {
                archive.close();
            }
        }
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
