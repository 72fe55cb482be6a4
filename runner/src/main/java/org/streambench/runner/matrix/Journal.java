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
     * A cell's entry. {@code measuredSeconds}: warm-up plus measured window of its run;
     * {@code overheadSeconds}: the rest of its wall time (reset, prefill, job launch, stop,
     * verification, and a server start if the cell needed one).
     */
    public static final class Entry {
        public final Cell cell;
        public State state = State.PENDING;
        public String reason;
        public String startedAt;
        public Double wallSeconds;
        public Double measuredSeconds;
        public Double overheadSeconds;
        public Double throughput;
        /** Where the cell's wall time went, phase by phase (serverStart when its database server was started for it). */
        public Map<String, Double> phaseSeconds = new LinkedHashMap<>();

        public int attempts;

        Entry(Cell cell) {
            this.cell = cell;
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
     * A new journal with every cell pending, written to {@code dir}: {@code settings} keyed as a
     * {@code --spec} file is, {@code spec} the first cell's.
     */
    public static Journal create(Path dir, MatrixPlan plan, Map<String, Object> settings, RunDocument.Spec spec)
            throws IOException {
        Journal journal = new Journal(dir, plan, Instant.now().toString());
        journal.settings = new LinkedHashMap<>(settings);
        journal.spec = spec;
        plan.cells().forEach(cell -> journal.entries.put(cell.id(), new Entry(cell)));
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
                p.engines(), p.databases(), p.patterns(), p.blobs(), p.repetitions(), p.shuffleSeed(), p.accesses());
        Journal journal = new Journal(dir, plan, document.createdAt());
        if (document.settings() != null) {
            journal.settings = new LinkedHashMap<>(document.settings());
            journal.spec = document.spec();
        } else {
            journal.legacyOptions = List.copyOf(document.options());
        }
        for (MatrixJournal.CellEntry c : document.cells()) {
            Entry entry = new Entry(new Cell(
                    c.engine(),
                    c.database(),
                    c.pattern(),
                    c.blobBytes(),
                    c.access() == null ? Cell.SYNC : c.access(),
                    c.repetition()));
            entry.state = State.parse(c.state());
            entry.reason = c.reason();
            entry.startedAt = c.startedAt();
            entry.wallSeconds = c.wallSeconds();
            entry.measuredSeconds = c.measuredSeconds();
            entry.overheadSeconds = c.overheadSeconds();
            entry.throughput = c.throughput();
            entry.attempts = c.attempts();
            if (c.phaseSeconds() != null) {
                entry.phaseSeconds.putAll(c.phaseSeconds());
            }
            journal.entries.put(entry.cell.id(), entry);
        }
        return journal;
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
        return entries.values().stream().filter(e -> e.state == state).count();
    }

    public synchronized void save() throws IOException {
        if (settings == null) {
            throw new IllegalStateException("a journal of layout 1 or 2 is migrated before it is written");
        }
        Map<String, Long> summary = new LinkedHashMap<>();
        for (State state : State.values()) {
            summary.put(state.label(), count(state));
        }
        List<MatrixJournal.CellEntry> cells = new ArrayList<>();
        for (Entry e : entries.values()) {
            Map<String, Double> phases = new LinkedHashMap<>();
            e.phaseSeconds.forEach((phase, seconds) -> phases.put(phase, Math.round(seconds * 1000) / 1000.0));
            cells.add(new MatrixJournal.CellEntry(
                    e.cell.id(),
                    e.cell.engine(),
                    e.cell.database(),
                    e.cell.pattern(),
                    e.cell.blobBytes(),
                    e.cell.repetition(),
                    e.state.label(),
                    e.reason,
                    e.attempts,
                    e.startedAt,
                    e.wallSeconds,
                    e.measuredSeconds,
                    e.overheadSeconds,
                    e.throughput,
                    phases,
                    e.cell.access()));
        }
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
                        plan.accesses()),
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
