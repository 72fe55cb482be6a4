package org.streambench.runner.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.streambench.db.Databases;
import org.streambench.local.Home;
import org.streambench.local.UserError;
import org.streambench.model.AccessModeName;
import org.streambench.model.RunDocument;
import org.streambench.operators.AccessMode;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;
import org.streambench.runner.capacity.CapacityInputs;
import org.streambench.runner.capacity.CapacityRun;
import org.streambench.runner.ceiling.CeilingTools;
import org.streambench.runner.ceiling.MatrixCeilings;
import org.streambench.runner.experiment.ConnectionOptions;
import org.streambench.runner.experiment.DatabaseSession;
import org.streambench.runner.experiment.DiskSpace;
import org.streambench.runner.experiment.Engines;
import org.streambench.runner.experiment.ExperimentOptions;
import org.streambench.runner.experiment.FillSteps;
import org.streambench.runner.experiment.Inputs;
import org.streambench.runner.experiment.JobOptions;
import org.streambench.runner.experiment.Names.DatabaseNames;
import org.streambench.runner.experiment.Names.EngineNames;
import org.streambench.runner.matrix.Cell;
import org.streambench.runner.matrix.Journal;
import org.streambench.runner.matrix.JournalSettings;
import org.streambench.runner.matrix.MatrixCells;
import org.streambench.runner.matrix.MatrixPlan;
import org.streambench.runner.matrix.MatrixProgress;
import org.streambench.runner.matrix.MatrixRunner;
import org.streambench.runner.matrix.SettingAxis;
import org.streambench.runner.matrix.TimeBudget;
import org.streambench.runner.monitor.MatrixMetrics;
import org.streambench.runner.results.ResultFiles;
import org.streambench.runner.results.ResultFolder;
import org.streambench.runner.results.Warmup;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "matrix",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Run the study's experiment matrix: every engine x database x pattern x BLOB size (3 x 5 x 4 x 3 = 180 by "
                    + "default), each a full `bench run` from a freshly reset database and a fresh job JVM, into one folder per cell.",
            "The journal DIR/matrix.json is rewritten after every experiment; --resume DIR continues an interrupted matrix "
                    + "(finished cells are never redone; the cell that was running is run again from a clean folder).",
            "Every `bench run` option (duration, warm-up, keys, parallelism, rate, ...) applies to all cells."
        },
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {
            "0:every cell ran and verified",
            "1:at least one cell failed (see the journal; --resume DIR --retry-failed)",
            "2:bad input (nothing written)"
        })
final class MatrixCommand implements Callable<Integer>, Bench.SpecFileMappings {

    static final List<String> STUDY_PATTERNS = List.of("read", "insert", "update", "mixed");
    static final List<String> STUDY_BLOBS = List.of("1", "10000", "100000");

    @Option(
            names = "--spec",
            paramLabel = "FILE",
            description =
                    "YAML matrix spec: keys are these options' names without --, " + "e.g. `patterns: read,update`.")
    Path specFile;

    @Option(
            names = "--engines",
            split = ",",
            paramLabel = "LIST",
            completionCandidates = EngineNames.class,
            description = "Engines, of ${COMPLETION-CANDIDATES} (default: the study's).")
    List<String> engines;

    @Option(
            names = "--databases",
            split = ",",
            paramLabel = "LIST",
            completionCandidates = DatabaseNames.class,
            description = "Databases, of ${COMPLETION-CANDIDATES} (default: the study's).")
    List<String> databases;

    @Option(
            names = "--patterns",
            split = ",",
            paramLabel = "LIST",
            description = "Patterns (default: read,insert,update,mixed).")
    List<String> patterns;

    @Option(
            names = "--blobs",
            split = ",",
            paramLabel = "BYTES,...",
            description = "BLOB sizes in bytes (default: 1,10000,100000).")
    List<String> blobs;

    @Option(
            names = "--accesses",
            split = ";",
            paramLabel = "LIST",
            description = "Access modes, separated by ';' (each as --access takes it: sync, batch:N[,linger=20ms],"
                    + " async:K), e.g. 'sync;batch:100;async:16' (default: sync, as the study).")
    List<String> accesses;

    @Option(
            names = "--guarantees",
            split = ",",
            paramLabel = "LIST",
            description = "Processing guarantees, each as --guarantee takes it: none, at-least-once, exactly-once"
                    + " (default: none, as the study). A cell whose engine or database cannot give its guarantee is"
                    + " left out, and the plan says which and why.")
    List<String> guarantees;

    @Option(
            names = "--checkpoint-intervals",
            split = ",",
            paramLabel = "LIST",
            description = "Checkpoint intervals of the cells with a guarantee, e.g. 1s,10s (default: 1s); the"
                    + " guarantee none takes no checkpoints, so it makes one cell.")
    List<String> checkpointIntervals;

    @Option(
            names = "--keyspaces",
            split = ",",
            paramLabel = "LIST",
            description = "Key spaces, each as --keys takes it, e.g. 10000,1000000: the database's size for read,"
                    + " update and mixed (default: --keys alone).")
    List<String> keyspaces;

    @Option(
            names = "--key-distributions",
            split = ",",
            paramLabel = "LIST",
            description = "Key distributions, each as --key-distribution takes it, e.g. uniform,zipfian (default:"
                    + " --key-distribution alone); an insert cell takes uniform only, the others are left out.")
    List<String> keyDistributions;

    @Option(
            names = "--parallelisms",
            split = ",",
            paramLabel = "LIST",
            description = "Processing parallelisms, each as --parallelism takes it, e.g. 1,2,4 (default:"
                    + " --parallelism alone).")
    List<String> parallelisms;

    @Option(
            names = "--db-settings",
            split = ";",
            paramLabel = "LIST",
            description = "Connector settings, one cell each, separated by ';' (each KEY=VALUE[,KEY=VALUE...] as"
                    + " --db-setting takes them), e.g. 'writeConsistency=ONE;writeConsistency=QUORUM' (default:"
                    + " --db-setting alone).")
    List<String> dbSettings;

    @Option(
            names = "--repetitions",
            paramLabel = "N",
            defaultValue = "1",
            description = "Runs of every cell (default: ${DEFAULT-VALUE}).")
    String repetitions;

    @Option(
            names = "--shuffle",
            paramLabel = "SEED",
            description = "Run the cells of each database group in a random order "
                    + "drawn from SEED (exposes drift over time); default: a fixed order.")
    String shuffle;

    @Option(names = "--out", paramLabel = "DIR", description = "Matrix folder (default: a new folder under results/).")
    Path out;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description = "Continue the matrix in DIR with the options it was started "
                    + "with (only credentials may be given again).")
    Path resume;

    @Option(names = "--retry-failed", description = "With --resume: run the failed cells again too.")
    boolean retryFailed;

    @Option(
            names = "--time-budget",
            paramLabel = "DURATION",
            description = "Fit the whole matrix into DURATION (e.g. 4h) instead of giving --duration: every cell is "
                    + "measured for the budget per experiment less the longest warm-up and about "
                    + TimeBudget.ESTIMATED_OVERHEAD_SECONDS + " s of overhead ("
                    + TimeBudget.ESTIMATED_YARN_OVERHEAD_SECONDS
                    + " s on YARN); --dry-run shows the window it gives.")
    String timeBudget;

    @Option(
            names = "--steps",
            paramLabel = "N",
            description = "Fill level: each cell, an insert, runs N times on one table, reset before the first step"
                    + " only (as bench run --steps), into DIR/<cell>/step-K (default: 1).")
    String steps;

    @Option(
            names = "--ceiling",
            description = "The database's own load tool beside the cells (as bench ceiling, one thread per processing"
                    + " instance): measured once per database x pattern x BLOB x access mode, after its first cell that passed, into"
                    + " DIR/ceilings/; every cell's result.json gets it and the pipeline's ratio to it. Databases"
                    + " without a tool, and access modes their tool cannot make, run without one.")
    boolean ceiling;

    @Option(
            names = "--capacity",
            description = "Each cell a capacity search (as bench capacity, at the matrix's --parallelism) instead of"
                    + " one unthrottled run: the highest rate within --slo, in the cell's folder (capacity.json and"
                    + " a folder per step). A cell in which no rate met the objective counts as failed.")
    boolean capacity;

    @Option(
            names = "--slo",
            paramLabel = "p99=DURATION",
            description = "With --capacity: the latency objective, e.g. p99=50ms (us, ms or s).")
    String slo;

    @Option(
            names = "--max-steps",
            paramLabel = "N",
            description =
                    "With --capacity: the most steps per search (default: " + CapacityInputs.DEFAULT_MAX_STEPS + ").")
    String maxSteps;

    @Option(
            names = "--max-time",
            paramLabel = "DURATION",
            description = "With --capacity: the longest search per cell; a step that would start later is not run"
                    + " (default: " + CapacityInputs.DEFAULT_MAX_TIME + ").")
    String maxTime;

    @Option(
            names = "--dry-run",
            description = "Print the plan, the number of experiments and the estimated time; run nothing.")
    boolean dryRun;

    @Mixin
    ExperimentOptions experiment;

    @Mixin
    ConnectionOptions connection;

    @Mixin
    JobOptions job;

    @Spec
    CommandSpec command;

    /** Options that are about this invocation, not about the cells: never stored in the journal. */
    private static final List<String> NOT_STORED = List.of(
            "--spec",
            "--time-budget",
            "--out",
            "--resume",
            "--retry-failed",
            "--dry-run",
            "--monitor",
            "--db-password",
            "--db-password-file",
            "--help",
            "--version");
    /** The single-experiment options that the axes replace. */
    private static final Map<String, String> AXIS_OF = Map.of(
            "--engine",
            "--engines",
            "--db",
            "--databases",
            "--pattern",
            "--patterns",
            "--blob",
            "--blobs",
            "--access",
            "--accesses",
            "--guarantee",
            "--guarantees",
            "--checkpoint-interval",
            "--checkpoint-intervals");
    /** What may be given again with --resume. */
    private static final List<String> RESUME_OPTIONS =
            List.of("--resume", "--retry-failed", "--dry-run", "--monitor", "--db-password", "--db-password-file");

    @Override
    public void useSpecFileMappings(Map<String, Map<String, String>> mappingsByOption) {
        experiment.useSpecFileMappings(mappingsByOption);
        connection.useSpecFileMappings(mappingsByOption);
    }

    @Override
    @SuppressWarnings("try") // the claim of the matrix folder is held, unused, while the matrix runs
    public Integer call() throws Exception {
        PrintWriter console = command.commandLine().getOut();
        for (Map.Entry<String, String> axis : AXIS_OF.entrySet()) {
            if (matched(axis.getKey())) {
                throw new UserError("bench matrix takes " + axis.getValue() + " (a list), not " + axis.getKey());
            }
        }
        if (retryFailed && resume == null) {
            throw new UserError("--retry-failed goes with --resume DIR");
        }
        if (resume != null) {
            return resume(console);
        }
        if (!given("--warmup", "warmup")) {
            experiment.warmup = Warmup.SERIES_DEFAULT;
        }
        if (!given("--metrics-port", "metrics-port")) {
            // each cell's job on any free port: Prometheus finds it through the scrape targets, and a
            // fixed port would collide with any other bench running on this machine
            job.metricsPort = "0";
        }
        MatrixPlan plan = plan();
        if (timeBudget != null && capacity) {
            throw new UserError("--time-budget sizes single runs; bound --capacity's searches with --max-steps and"
                    + " --max-time");
        }
        List<Cell> cells = cellsThatCanRun(plan, console);
        if (timeBudget != null) {
            fitInto(timeBudget, cells.size() * fillSteps(), console);
        }
        List<ExperimentSpec> specs = checkCells(cells);
        Path dir = out != null ? out : ResultFolder.defaultFor("matrix");
        if (dryRun) {
            printPlan(console, plan, cells, specs, null);
            return 0;
        }
        ResultFolder.requireUsable(dir);
        job.checkMonitor();
        try (ResultFolder claimed = ResultFolder.claimEmpty(dir, "--out")) {
            Journal journal = Journal.create(dir, plan, cells, storedSettings(), ResultFiles.spec(specs.get(0)));
            console.println("matrix of " + cells.size() + " experiments -> " + dir
                    + " (resume with: ./bench matrix --resume " + dir + ")");
            return execute(journal, console);
        }
    }

    @SuppressWarnings("try") // the claim of the matrix folder is held, unused, while the matrix runs
    private Integer resume(PrintWriter console) throws Exception {
        for (OptionSpec option : command.commandLine().getParseResult().matchedOptions()) {
            if (!RESUME_OPTIONS.contains(option.longestName())) {
                throw new UserError(
                        "--resume continues a matrix with the options it was started with; " + option.longestName()
                                + " cannot be changed (only --retry-failed, --dry-run, --monitor and credentials may be given)");
            }
        }
        if (!Files.isRegularFile(resume.resolve(Journal.FILE))) {
            throw new UserError(resume + " is not a matrix folder: it holds no journal (" + Journal.FILE
                    + "); give the folder of a matrix");
        }
        try (ResultFolder claimed = ResultFolder.claimExisting(resume, "--resume folder")) {
            return resumeClaimed(console);
        }
    }

    private Integer resumeClaimed(PrintWriter console) throws Exception {
        Journal journal;
        try {
            journal = Journal.read(resume);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
        List<String> args = new ArrayList<>(
                journal.settings() != null ? JournalSettings.argsOf(journal.settings()) : journal.legacyOptions());
        for (String credential : List.of("--db-password", "--db-password-file")) {
            OptionSpec option = command.findOption(credential);
            if (option.getValue() != null) {
                args.add(credential + "=" + option.getValue());
            }
        }
        MatrixCommand stored = new MatrixCommand();
        CommandLine parser = new CommandLine(stored);
        parser.setOut(command.commandLine().getOut());
        try {
            parser.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new UserError(resume.resolve(Journal.FILE) + " holds settings this version does not take ("
                    + e.getMessage() + "); finish the matrix with the streambench that started it, or start a new one");
        }
        RunDocument.Spec firstSpec =
                ResultFiles.spec(stored.specOf(journal.entries().get(0).cell()));
        if (journal.settings() == null) {
            journal.migrate(stored.storedSettings(), firstSpec);
        } else if (journal.spec() != null) {
            List<String> changed = JournalSettings.specChanges(journal.spec(), firstSpec);
            if (!changed.isEmpty()) {
                throw new UserError(resume.resolve(Journal.FILE) + ": this version would run the cells differently"
                        + " from the one that started the matrix (" + String.join("; ", changed)
                        + "); finish it with that streambench, or start a new matrix");
            }
        }
        stored.retryFailed = retryFailed;
        stored.dryRun = dryRun;
        stored.job.monitor = job.monitor;
        List<Journal.Entry> todo = MatrixRunner.todo(journal, retryFailed);
        List<ExperimentSpec> specs =
                stored.checkCells(todo.stream().map(e -> e.cell()).toList());
        if (dryRun) {
            stored.printPlan(
                    console, journal.plan(), todo.stream().map(e -> e.cell()).toList(), specs, journal);
            return 0;
        }
        console.printf(
                Locale.ROOT,
                "resuming %s: %d done, %d failed, %d to run%n",
                resume,
                journal.count(Journal.State.OK),
                journal.count(Journal.State.FAILED),
                todo.size());
        return stored.execute(journal, console);
    }

    /**
     * Sets the measured window that fits {@code experiments} into the budget; the journal stores
     * the window, so a resumed matrix keeps it.
     */
    private void fitInto(String budget, int experiments, PrintWriter console) {
        if (given("--duration", "duration")) {
            throw new UserError("give --duration or --time-budget, not both");
        }
        int warmup = experiment.warmupMaximumSeconds();
        int overhead = estimatedOverheadSeconds();
        int measured =
                TimeBudget.measuredSeconds(Inputs.seconds("--time-budget", budget), experiments, warmup, overhead);
        experiment.duration = measured + "s";
        console.printf(
                Locale.ROOT,
                "--time-budget %s: %d s measured per experiment (%d experiments x (warm-up of at most %d s + %d s"
                        + " measured + about %d s of overhead))%n",
                budget.trim(),
                measured,
                experiments,
                warmup,
                measured,
                overhead);
    }

    /** What a cell is taken to cost besides its warm-up and measured window, before any has run. */
    private int estimatedOverheadSeconds() {
        return job.onYarn() ? TimeBudget.ESTIMATED_YARN_OVERHEAD_SECONDS : TimeBudget.ESTIMATED_OVERHEAD_SECONDS;
    }

    /** Whether an option was given, on the command line or in the spec file. */
    private boolean given(String option, String specKey) {
        return matched(option) || (specFile != null && Bench.readYaml(specFile).containsKey(specKey));
    }

    private boolean matched(String option) {
        return command.commandLine().getParseResult().hasMatchedOption(option);
    }

    private MatrixPlan plan() {
        List<String> engineAxis = axis("--engines", engines, Engines.study());
        List<String> databaseAxis = axis("--databases", databases, Databases.study());
        List<String> patternAxis = axis("--patterns", patterns, STUDY_PATTERNS);
        List<Integer> blobAxis = axis("--blobs", blobs, STUDY_BLOBS).stream()
                .map(b -> Inputs.positiveInt("--blobs", b, " of bytes (the study used 1, 10000 and 100000)"))
                .toList();
        int runs = Inputs.positiveInt("--repetitions", repetitions, "");
        Long seed = null;
        if (shuffle != null) {
            try {
                seed = Inputs.whole(shuffle);
            } catch (NumberFormatException e) {
                throw new UserError("--shuffle '" + shuffle + "' must be a whole number (the seed of the order)");
            }
        }
        List<String> accessAxis = canonical(
                "--access",
                "--accesses",
                axis("--accesses", accesses, List.of(AccessModeName.SYNC)),
                access -> AccessMode.parse(access).toString());
        List<String> guaranteeAxis = canonical(
                "--guarantee",
                "--guarantees",
                axis("--guarantees", guarantees, List.of(Cell.NO_GUARANTEE)),
                guarantee -> Guarantee.parse(guarantee).cliName());
        List<String> intervalAxis =
                axis("--checkpoint-intervals", checkpointIntervals, List.of(experiment.checkpointInterval));
        intervalAxis.forEach(
                interval -> ExperimentOptions.checkpointIntervalMillis("--checkpoint-intervals", interval));
        if (checkpointIntervals != null && guaranteeAxis.stream().allMatch(Cell.NO_GUARANTEE::equals)) {
            throw new UserError("--checkpoint-intervals goes with a guarantee that checkpoints; add --guarantees"
                    + " at-least-once or exactly-once");
        }
        return new MatrixPlan(
                engineAxis,
                databaseAxis,
                patternAxis,
                blobAxis,
                runs,
                seed,
                accessAxis,
                guaranteeAxis,
                intervalAxis,
                settingAxes());
    }

    /** The setting axes given, each value in one spelling; an axis beside the single option that sets the same is refused. */
    private Map<String, List<String>> settingAxes() {
        Map<SettingAxis, List<String>> given = new LinkedHashMap<>();
        for (SettingAxis axis : SettingAxis.values()) {
            List<String> values = givenValues(axis);
            if (values != null) {
                given.put(
                        axis,
                        canonical(
                                axis.listOption(),
                                axis.listOption(),
                                axis(axis.listOption(), values, List.of(axis.example())),
                                axis::canonical));
            }
        }
        return SettingAxis.axes(given, runOption -> given("--" + runOption, runOption), connection::sets);
    }

    private List<String> givenValues(SettingAxis axis) {
        return switch (axis) {
            case KEYSPACES -> keyspaces;
            case PARALLELISMS -> parallelisms;
            case KEY_DISTRIBUTIONS -> keyDistributions;
            case DB_SETTINGS -> dbSettings;
        };
    }

    /**
     * Each value of a list option as its single-value option spells it (so two spellings of one
     * value make one cell); the parser's refusal, which names the single option, names the list.
     */
    private static List<String> canonical(
            String singleOption, String listOption, List<String> values, UnaryOperator<String> parser) {
        return values.stream()
                .map(value -> {
                    try {
                        return parser.apply(value);
                    } catch (IllegalArgumentException e) {
                        throw new UserError(e.getMessage().replace(singleOption + " ", listOption + " "));
                    }
                })
                .distinct()
                .toList();
    }

    /**
     * The plan's cells less those that only their guarantee or key distribution keeps from running
     * (exactly-once on a database without transactions, zipfian keys for insert), which the console
     * lists by reason; refused when no cell is left. A cell that is refused without them too is
     * refused with the whole matrix, as any bad input.
     */
    private List<Cell> cellsThatCanRun(MatrixPlan plan, PrintWriter console) {
        List<Cell> cells = new ArrayList<>();
        Map<String, Integer> leftOut = new LinkedHashMap<>();
        for (Cell cell : plan.cells()) {
            Cell plain = cell.withoutVariants();
            if (plain.equals(cell)) {
                cells.add(cell);
                continue;
            }
            specOf(plain);
            try {
                specOf(cell);
                cells.add(cell);
            } catch (UserError refused) {
                leftOut.merge(refused.getMessage(), 1, Integer::sum);
            }
        }
        if (cells.isEmpty()) {
            throw new UserError("no cell of the matrix can run its guarantee or key distribution: "
                    + leftOut.keySet().iterator().next());
        }
        if (!leftOut.isEmpty()) {
            console.printf(
                    Locale.ROOT,
                    "left out %d of %d cells, whose guarantee or key distribution their engine, database or pattern"
                            + " cannot take:%n",
                    plan.cells().size() - cells.size(),
                    plan.cells().size());
            leftOut.forEach((reason, count) -> console.printf(Locale.ROOT, "  %d x %s%n", count, reason));
        }
        return cells;
    }

    private static List<String> axis(String option, List<String> given, List<String> study) {
        if (given == null) {
            return study;
        }
        List<String> values = new ArrayList<>(new LinkedHashSet<>(
                given.stream().map(String::trim).filter(v -> !v.isEmpty()).toList()));
        if (values.isEmpty()) {
            throw new UserError(option + " is empty; give at least one value, e.g. " + option + " " + study.get(0));
        }
        if (values.size() < given.stream().filter(v -> !v.isBlank()).count()) {
            throw new UserError(option + " names a value twice: " + String.join(",", given));
        }
        return values;
    }

    /** --capacity's objective and bounds, checked; null without --capacity (whose options are then refused). */
    private MatrixCells.Capacity capacitySettings() {
        if (!capacity) {
            for (String option : List.of("--slo", "--max-steps", "--max-time")) {
                if (command.findOption(option).getValue() != null) {
                    throw new UserError(option + " goes with --capacity");
                }
            }
            return null;
        }
        if (slo == null) {
            throw new UserError("--capacity needs the objective, e.g. --slo p99=50ms");
        }
        if (experiment.throttled()) {
            throw new UserError("bench matrix --capacity sets the rate of every step itself; leave out --rate");
        }
        if (ceiling) {
            throw new UserError("--capacity and --ceiling: give one (a capacity search has no single throughput to"
                    + " set beside the ceiling)");
        }
        return new MatrixCells.Capacity(
                CapacityInputs.objective(slo),
                CapacityInputs.bounds(
                        maxSteps == null ? CapacityInputs.DEFAULT_MAX_STEPS : maxSteps,
                        maxTime == null ? CapacityInputs.DEFAULT_MAX_TIME : maxTime));
    }

    /** --steps: the fill's steps of every cell, 1 without it; with --capacity or --ceiling, bad input. */
    private int fillSteps() {
        int parsed = FillSteps.parse(steps);
        if (parsed > 1 && (capacity || ceiling)) {
            throw new UserError(
                    "--steps fills a table run by run; leave out " + (capacity ? "--capacity" : "--ceiling"));
        }
        return parsed;
    }

    /** Checks every cell as `bench run` would, before anything starts; returns their specs. */
    private List<ExperimentSpec> checkCells(List<Cell> cells) throws IOException {
        MatrixCells.Capacity capacitySettings = capacitySettings();
        int fill = fillSteps();
        List<ExperimentSpec> specs = new ArrayList<>();
        job.runner(new PrintWriter(PrintWriter.nullWriter()));
        for (String database :
                new LinkedHashSet<>(cells.stream().map(Cell::database).toList())) {
            DatabaseSession.check(database, connection);
        }
        if (connection.url != null
                && cells.stream().map(Cell::database).distinct().count() > 1) {
            throw new UserError("--db-url names one database, but the matrix has several; narrow --databases to one");
        }
        Set<String> ids = new HashSet<>();
        for (Cell cell : cells) {
            if (!ids.add(cell.id())) {
                throw new UserError("two cells of the matrix would share the folder " + cell.id()
                        + "; give values of " + SettingAxis.DB_SETTINGS.listOption() + " that differ in more than"
                        + " punctuation");
            }
            String added = cell.settings().get(SettingAxis.DB_SETTINGS.runOption());
            if (added != null) {
                DatabaseSession.checkAdded(cell.database(), connection, SettingAxis.databaseSettings(added));
            }
            ExperimentSpec spec;
            try {
                spec = specOf(cell);
            } catch (UserError refused) {
                if (cell.settings().isEmpty()) {
                    throw refused;
                }
                throw new UserError(refused.getMessage() + " (in the matrix's cell " + cell.id() + ")");
            }
            DatabaseSession.checkConnections(spec.database(), spec.access(), spec.parallelism(), connection);
            DatabaseSession.checkFault(spec, connection);
            DiskSpace.requireForPrefill(spec, connection);
            if (fill > 1) {
                FillSteps.check(spec, fill, matched("--run-token"), connection);
            }
            specs.add(spec);
        }
        if (ceiling && !cells.isEmpty()) {
            checkCeilings(cells, specs.get(0).parallelism());
        }
        if (capacitySettings != null) {
            List<String> warnings = specs.stream() // every cell checked before a warning is printed
                    .map(spec -> CapacityRun.checkObjective(spec, capacitySettings.objective()))
                    .flatMap(Optional::stream)
                    .distinct()
                    .toList();
            warnings.forEach(command.commandLine().getErr()::println);
        }
        return specs;
    }

    /** --ceiling: some database of the matrix has a tool, each such tool is installed, and it takes the parallelism as threads. */
    private static void checkCeilings(List<Cell> cells, int parallelism) {
        List<String> withTool =
                CeilingTools.withCeilingTool(cells.stream().map(Cell::database).toList());
        if (withTool.isEmpty()) {
            throw new UserError("--ceiling: none of the matrix's databases has a ceiling tool; those that have one: "
                    + String.join(", ", CeilingTools.withCeilingTool()));
        }
        CeilingTools.requireClientsFor(parallelism);
        withTool.forEach(database ->
                CeilingTools.requireInstalled(CeilingTools.toolOf(database).orElseThrow()));
    }

    private ExperimentSpec specOf(Cell cell) {
        experiment.engine = cell.engine();
        experiment.database = cell.database();
        experiment.pattern = cell.pattern();
        experiment.blob = Integer.toString(cell.blobBytes());
        experiment.access = cell.access();
        experiment.guarantee = cell.guarantee();
        if (cell.checkpointInterval() != null) {
            experiment.checkpointInterval = cell.checkpointInterval();
        }
        cell.settings().forEach((name, value) -> {
            switch (SettingAxis.ofRunOption(name).orElseThrow()) {
                case KEYSPACES -> experiment.keys = value;
                case PARALLELISMS -> experiment.parallelism = value;
                case KEY_DISTRIBUTIONS -> experiment.keyDistribution = value;
                case DB_SETTINGS -> {} // the connector's, added to the session's settings: see inSessionOf
            }
        });
        return experiment.toSpec(job);
    }

    /** The plan and its estimated wall time; with the journal of a matrix under way, its measured overhead. */
    private void printPlan(
            PrintWriter console, MatrixPlan plan, List<Cell> cells, List<ExperimentSpec> specs, Journal measured) {
        MatrixPlanPrinter.print(
                console,
                new MatrixPlanPrinter.Settings(
                        experiment.steadyWarmup(),
                        job.metricsPort,
                        estimatedOverheadSeconds(),
                        capacitySettings(),
                        ceiling,
                        fillSteps()),
                plan,
                cells,
                specs,
                measured);
    }

    /**
     * What every cell runs with besides the axes, keyed as a --spec file is: what was given, on the
     * command line or in a spec file, and every default.
     */
    private Map<String, Object> storedSettings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        for (OptionSpec option : command.options()) {
            String name = option.longestName();
            if (NOT_STORED.contains(name)
                    || AXIS_OF.containsKey(name)
                    || AXIS_OF.containsValue(name)
                    || Arrays.stream(SettingAxis.values())
                            .anyMatch(axis -> axis.listOption().equals(name))) {
                continue;
            }
            Object value = JournalSettings.stored(option.getValue());
            if (value != null) {
                settings.put(name.substring(2), value);
            }
        }
        return settings;
    }

    /** Runs the journal's cells still to run, database group by database group; returns the exit code. */
    private Integer execute(Journal journal, PrintWriter console) throws Exception {
        int total = journal.entries().size();
        long done = journal.count(Journal.State.OK) + journal.count(Journal.State.FAILED);
        job.checkMonitor();
        Runnable stopMonitor = job.startMonitor(console);
        // a bar only on a terminal: in a log file it would be a thousand lines of redraws
        MatrixProgress progress = MatrixProgress.start(total, done, MatrixProgress.terminal());
        MatrixRunner<DatabaseSession> runner;
        MatrixCeilings ceilings = ceiling ? new MatrixCeilings(journal.dir()) : null;
        try (MatrixMetrics metrics = new MatrixMetrics(Home.work(), total)) {
            runner = new MatrixRunner<>(
                    journal,
                    new MatrixCells(
                            connection,
                            this::specOf,
                            job::runner,
                            experiment.steadyWarmup(),
                            ceilings,
                            capacitySettings(),
                            fillSteps()),
                    listener(metrics, progress),
                    retryFailed);
            runner.run(progress.above(console));
        } finally {
            progress.close();
            stopMonitor.run();
        }
        if (ceilings != null) {
            console.println(ceilings.summary());
        }
        return runner.summarize(console);
    }

    /** The matrix's Prometheus metrics and its progress bar hear of every cell. */
    private static MatrixRunner.Listener listener(MatrixMetrics metrics, MatrixProgress progress) {
        return new MatrixRunner.Listener() {
            @Override
            public void started(Cell cell) {
                metrics.started(cell);
            }

            @Override
            public void finished(
                    Cell cell, Double throughput, Double readLatencyMicros, long ok, long failed, long left, long eta) {
                metrics.finished(cell, throughput, readLatencyMicros, ok, failed, left, eta);
                progress.update(ok, failed, left);
            }

            @Override
            public void progress(long ok, long failed, long left) {
                metrics.progress(ok, failed, left);
                progress.update(ok, failed, left);
            }
        };
    }
}
