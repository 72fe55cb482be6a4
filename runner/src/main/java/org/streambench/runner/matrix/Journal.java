package org.streambench.runner.matrix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.streambench.model.AccessModeName;
import org.streambench.model.JournalJson;
import org.streambench.model.MatrixJournal;
import org.streambench.model.RunDocument;

/**
 * The state of a matrix, in {@code DIR/matrix.json}, rewritten atomically after every change: the
 * plan, the settings every cell runs with (and the first cell's spec they gave), and each cell's
 * state with its timings. A cell is "running" from just before its experiment starts until its
 * result is in; a matrix that died meanwhile finds it "running" on resume and runs it again from a
 * clean folder.
 */
public final class Journal {

    public static final String FILE = MatrixJournal.FILE;
    public static final int VERSION = MatrixJournal.VERSION;

    public enum State {
        PENDING,
        RUNNING,
        OK,
        FAILED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static State parse(String label) {
            return valueOf(label.toUpperCase(java.util.Locale.ROOT));
        }
    }

    /**
     * A cell and its entry in the journal as the document holds it ({@link MatrixJournal.CellEntry}),
     * replaced as the cell goes from pending to running to ok or failed.
     */
    public static final class Entry {
        private final Cell cell;
        private MatrixJournal.CellEntry document;

        Entry(Cell cell) {
            this.cell = cell;
            this.document = document(State.PENDING, null, 0, null, null, null, null, null, Map.of());
        }

        /** A cell as a journal read holds it: its id and access mode written as this version writes them, an unknown state refused. */
        Entry(Cell cell, MatrixJournal.CellEntry read) {
            this.cell = cell;
            this.document = document(
                    State.parse(read.state()),
                    read.reason(),
                    read.attempts(),
                    read.startedAt(),
                    read.wallSeconds(),
                    read.measuredSeconds(),
                    read.overheadSeconds(),
                    read.throughput(),
                    read.phaseSeconds() == null ? Map.of() : read.phaseSeconds());
        }

        public Cell cell() {
            return cell;
        }

        public State state() {
            return State.parse(document.state());
        }

        /** Why the cell failed; null unless it did. */
        public String reason() {
            return document.reason();
        }

        public int attempts() {
            return document.attempts();
        }

        /** Its records/s (a run's mean throughput, a capacity search's capacity); null until it has one. */
        public Double throughput() {
            return document.throughput();
        }

        /** Its wall time but warm-up and measured window; null until it has both. */
        public Double overheadSeconds() {
            return document.overheadSeconds();
        }

        /** Where its wall time went, phase by phase (serverStart when its database server was started for it). */
        public Map<String, Double> phaseSeconds() {
            return document.phaseSeconds();
        }

        MatrixJournal.CellEntry document() {
            return document;
        }

        /** The cell starts (again): running, one more attempt, its phases so far only the server's start, if it had one. */
        void started(Double serverStartSeconds) {
            Map<String, Double> phases = new LinkedHashMap<>();
            if (serverStartSeconds != null) {
                phases.put("serverStart", serverStartSeconds);
            }
            document = document(
                    State.RUNNING,
                    null,
                    attempts() + 1,
                    Instant.now().toString(),
                    document.wallSeconds(),
                    document.measuredSeconds(),
                    document.overheadSeconds(),
                    document.throughput(),
                    phases);
        }

        /** Its run came to a result: ok or failed with {@code reason}, its measured seconds and phases. */
        void ran(
                boolean passed,
                String reason,
                Double throughput,
                Double measuredSeconds,
                Map<String, Double> phaseSeconds) {
            Map<String, Double> phases = new LinkedHashMap<>(phaseSeconds());
            phases.putAll(phaseSeconds);
            document = document(
                    passed ? State.OK : State.FAILED,
                    reason,
                    attempts(),
                    document.startedAt(),
                    document.wallSeconds(),
                    measuredSeconds,
                    document.overheadSeconds(),
                    throughput,
                    phases);
        }

        /** Its run failed before it came to a result. */
        void failed(String reason) {
            state(State.FAILED, reason);
        }

        /** Interrupted: running, as the journal says, so that a resume runs it again. */
        void interrupted() {
            state(State.RUNNING, null);
        }

        /** It ended after {@code wallSeconds}: what of them the run did not measure is its overhead. */
        void ended(double wallSeconds) {
            Double measured = document.measuredSeconds();
            Double overhead =
                    measured == null ? document.overheadSeconds() : Double.valueOf(Math.max(0, wallSeconds - measured));
            document = document(
                    state(),
                    reason(),
                    attempts(),
                    document.startedAt(),
                    wallSeconds,
                    measured,
                    overhead,
                    document.throughput(),
                    phaseSeconds());
        }

        void state(State state, String reason) {
            document = document(
                    state,
                    reason,
                    attempts(),
                    document.startedAt(),
                    document.wallSeconds(),
                    document.measuredSeconds(),
                    document.overheadSeconds(),
                    document.throughput(),
                    phaseSeconds());
        }

        private MatrixJournal.CellEntry document(
                State state,
                String reason,
                int attempts,
                String startedAt,
                Double wallSeconds,
                Double measuredSeconds,
                Double overheadSeconds,
                Double throughput,
                Map<String, Double> phaseSeconds) {
            Map<String, Double> phases = new LinkedHashMap<>();
            phaseSeconds.forEach((phase, seconds) -> phases.put(phase, Math.round(seconds * 1000) / 1000.0));
            return new MatrixJournal.CellEntry(
                    cell.id(),
                    cell.engine(),
                    cell.database(),
                    cell.pattern(),
                    cell.blobBytes(),
                    cell.repetition(),
                    state.label(),
                    reason,
                    attempts,
                    startedAt,
                    wallSeconds,
                    measuredSeconds,
                    overheadSeconds,
                    throughput,
                    phases,
                    cell.access(),
                    cell.guarantee(),
                    cell.checkpointInterval(),
                    cell.settings());
        }
    }

    private final Path dir;
    private final MatrixPlan plan;
    private final String createdAt;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private Map<String, Object> settings;
    private RunDocument.Spec spec;
    private List<String> legacyOptions;

    private Journal(Path dir, MatrixPlan plan, String createdAt) {
        this.dir = dir;
        this.plan = plan;
        this.createdAt = createdAt;
    }

    /**
     * A new journal with every cell of the plan pending, written to {@code dir}: {@code settings}
     * keyed as a {@code --spec} file is, {@code spec} the first cell's.
     */
    public static Journal create(Path dir, MatrixPlan plan, Map<String, Object> settings, RunDocument.Spec spec)
            throws IOException {
        return create(dir, plan, plan.cells(), settings, spec);
    }

    /** As {@link #create(Path, MatrixPlan, Map, RunDocument.Spec)}, with the plan's cells that can run only. */
    public static Journal create(
            Path dir, MatrixPlan plan, List<Cell> cells, Map<String, Object> settings, RunDocument.Spec spec)
            throws IOException {
        Journal journal = new Journal(dir, plan, Instant.now().toString());
        journal.settings = new LinkedHashMap<>(settings);
        journal.spec = spec;
        cells.forEach(cell -> journal.entries.put(cell.id(), new Entry(cell)));
        journal.save();
        return journal;
    }

    public static boolean exists(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE));
    }

    /** Reads {@code dir/matrix.json}; throws {@link IllegalArgumentException} saying what is wrong with it. */
    public static Journal read(Path dir) throws IOException {
        if (!exists(dir)) {
            throw new IllegalArgumentException(dir + " is not a matrix folder (it has no " + FILE + ")");
        }
        MatrixJournal document = JournalJson.read(dir.resolve(FILE));
        MatrixJournal.Plan p = document.plan();
        if (p == null
                || p.engines() == null
                || p.databases() == null
                || p.patterns() == null
                || p.blobs() == null
                || (document.settings() == null && document.options() == null)) {
            throw new IllegalArgumentException(
                    dir.resolve(FILE) + " has no plan or settings: it is not a journal bench matrix can resume");
        }
        MatrixPlan plan = new MatrixPlan(
                p.engines(),
                p.databases(),
                p.patterns(),
                p.blobs(),
                p.repetitions(),
                p.shuffleSeed(),
                p.accesses(),
                p.guarantees(),
                p.checkpointIntervals(),
                p.settingAxes());
        Journal journal = new Journal(dir, plan, document.createdAt());
        if (document.settings() != null) {
            journal.settings = new LinkedHashMap<>(document.settings());
            journal.settings.remove(RECORDS, UNBOUNDED_RECORDS);
            journal.spec = document.spec();
        } else {
            journal.legacyOptions = withoutUnboundedRecords(document.options());
        }
        for (MatrixJournal.CellEntry c : document.cells()) {
            Entry entry = new Entry(
                    new Cell(
                            c.engine(),
                            c.database(),
                            c.pattern(),
                            c.blobBytes(),
                            AccessModeName.orSync(c.access()),
                            c.guarantee() == null ? Cell.NO_GUARANTEE : c.guarantee(),
                            c.checkpointInterval(),
                            c.settings(),
                            c.repetition()),
                    c);
            journal.entries.put(entry.cell().id(), entry);
        }
        return journal;
    }

    /** A journal written before --records refused 0 stores the option's old default, "0" (unbounded): read as no --records. */
    private static final String RECORDS = "records";

    private static final String UNBOUNDED_RECORDS = "0";

    private static List<String> withoutUnboundedRecords(List<String> options) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < options.size(); i++) {
            String option = options.get(i);
            if (option.equals("--" + RECORDS + "=" + UNBOUNDED_RECORDS)) {
                continue;
            }
            if (option.equals("--" + RECORDS)
                    && i + 1 < options.size()
                    && options.get(i + 1).equals(UNBOUNDED_RECORDS)) {
                i++;
                continue;
            }
            kept.add(option);
        }
        return List.copyOf(kept);
    }

    public MatrixPlan plan() {
        return plan;
    }

    /**
     * What every cell runs with besides the axes, keyed as a {@code --spec} file is; null for a
     * journal of layout 1 or 2 until {@link #migrate} gives it the settings its {@link #legacyOptions} mean.
     */
    public Map<String, Object> settings() {
        return settings;
    }

    /** The first cell's spec as the settings gave it when the matrix started; null in a journal of layout 1 or 2. */
    public RunDocument.Spec spec() {
        return spec;
    }

    /** A journal of layout 1 or 2: its settings as the command-line arguments it stored; null in a later one. */
    public List<String> legacyOptions() {
        return legacyOptions;
    }

    /** A journal of layout 1 or 2 read: the settings and spec its arguments mean, written from the next save on. */
    public void migrate(Map<String, Object> settings, RunDocument.Spec spec) {
        if (this.settings != null) {
            throw new IllegalStateException("the journal has its settings already");
        }
        this.settings = new LinkedHashMap<>(settings);
        this.spec = spec;
        this.legacyOptions = null;
    }

    public List<Entry> entries() {
        return new ArrayList<>(entries.values());
    }

    public Path dir() {
        return dir;
    }

    public long count(State state) {
        return entries.values().stream().filter(e -> e.state() == state).count();
    }

    public synchronized void save() throws IOException {
        if (settings == null) {
            throw new IllegalStateException("a journal of layout 1 or 2 is migrated before it is written");
        }
        Map<String, Long> summary = new LinkedHashMap<>();
        for (State state : State.values()) {
            summary.put(state.label(), count(state));
        }
        List<MatrixJournal.CellEntry> cells =
                entries.values().stream().map(Entry::document).toList();
        MatrixJournal document = new MatrixJournal(
                VERSION,
                createdAt,
                new MatrixJournal.Plan(
                        plan.engines(),
                        plan.databases(),
                        plan.patterns(),
                        plan.blobs(),
                        plan.repetitions(),
                        plan.shuffleSeed(),
                        plan.accesses(),
                        plan.guarantees(),
                        plan.checkpointIntervals(),
                        plan.settingAxes()),
                settings,
                spec,
                null,
                summary,
                cells);
        Files.createDirectories(dir);
        Path tmp = dir.resolve(FILE + ".tmp");
        Files.writeString(tmp, JournalJson.write(document));
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
