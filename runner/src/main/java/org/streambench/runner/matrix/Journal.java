package org.streambench.runner.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.streambench.report.PlannedCells;

/**
 * The state of a matrix, in {@code DIR/matrix.json}, rewritten atomically after every change: the
 * plan, the options every cell runs with, and each cell's state with its timings. A cell is
 * "running" from just before its experiment starts until its result is in; a matrix that died
 * meanwhile finds it "running" on resume and runs it again from a clean folder.
 */
public final class Journal {

    public static final String FILE = PlannedCells.JOURNAL;
    /** One number for both readers of the journal: the matrix runner (resume) and the report. */
    public static final int VERSION = PlannedCells.JOURNAL_VERSION;

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

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private final MatrixPlan plan;
    private final List<String> options;
    private final String createdAt;
    private final Map<String, Entry> entries = new LinkedHashMap<>();

    private Journal(Path dir, MatrixPlan plan, List<String> options, String createdAt) {
        this.dir = dir;
        this.plan = plan;
        this.options = List.copyOf(options);
        this.createdAt = createdAt;
    }

    /** A new journal with every cell pending, written to {@code dir}. */
    public static Journal create(Path dir, MatrixPlan plan, List<String> options) throws IOException {
        Journal journal = new Journal(dir, plan, options, Instant.now().toString());
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
        JsonNode root;
        try {
            root = JSON.readTree(dir.resolve(FILE).toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    dir.resolve(FILE) + " is not a readable matrix journal: " + e.getMessage());
        }
        int version = root.path("version").asInt(-1);
        if (version > VERSION) {
            throw new IllegalArgumentException(
                    dir.resolve(FILE) + " was written by a newer streambench (journal version " + version
                            + ", this one reads " + VERSION + "); use that version");
        }
        if (version != VERSION || !root.has("plan") || !root.has("cells")) {
            throw new IllegalArgumentException(dir.resolve(FILE) + " is not a matrix journal of version " + VERSION);
        }
        JsonNode p = root.get("plan");
        MatrixPlan plan = new MatrixPlan(
                strings(p.get("engines")),
                strings(p.get("databases")),
                strings(p.get("patterns")),
                strings(p.get("blobs")).stream().map(Integer::valueOf).toList(),
                p.get("repetitions").asInt(),
                p.get("shuffleSeed").isNull() ? null : p.get("shuffleSeed").asLong());
        Journal journal = new Journal(
                dir, plan, strings(root.get("options")), root.path("createdAt").asText());
        for (JsonNode c : root.get("cells")) {
            Entry entry = new Entry(new Cell(
                    c.get("engine").asText(),
                    c.get("database").asText(),
                    c.get("pattern").asText(),
                    c.get("blobBytes").asInt(),
                    c.get("repetition").asInt()));
            entry.state = State.parse(c.get("state").asText());
            entry.reason = text(c, "reason");
            entry.startedAt = text(c, "startedAt");
            entry.wallSeconds = number(c, "wallSeconds");
            entry.measuredSeconds = number(c, "measuredSeconds");
            entry.overheadSeconds = number(c, "overheadSeconds");
            entry.throughput = number(c, "throughput");
            entry.attempts = c.path("attempts").asInt(0);
            c.path("phaseSeconds")
                    .fields()
                    .forEachRemaining(
                            f -> entry.phaseSeconds.put(f.getKey(), f.getValue().asDouble()));
            journal.entries.put(entry.cell.id(), entry);
        }
        return journal;
    }

    public MatrixPlan plan() {
        return plan;
    }

    /** The command-line options (besides the axes) every cell runs with, as given when the matrix was created. */
    public List<String> options() {
        return options;
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
        ObjectNode root = JSON.createObjectNode();
        root.put("version", VERSION);
        root.put("createdAt", createdAt);
        ObjectNode p = root.putObject("plan");
        strings(p.putArray("engines"), plan.engines());
        strings(p.putArray("databases"), plan.databases());
        strings(p.putArray("patterns"), plan.patterns());
        ArrayNode blobs = p.putArray("blobs");
        plan.blobs().forEach(blobs::add);
        p.put("repetitions", plan.repetitions());
        if (plan.shuffleSeed() == null) {
            p.putNull("shuffleSeed");
        } else {
            p.put("shuffleSeed", plan.shuffleSeed());
        }
        strings(root.putArray("options"), options);
        ObjectNode summary = root.putObject("summary");
        for (State state : State.values()) {
            summary.put(state.label(), count(state));
        }
        ArrayNode cells = root.putArray("cells");
        for (Entry e : entries.values()) {
            ObjectNode c = cells.addObject();
            c.put("id", e.cell.id());
            c.put("engine", e.cell.engine());
            c.put("database", e.cell.database());
            c.put("pattern", e.cell.pattern());
            c.put("blobBytes", e.cell.blobBytes());
            c.put("repetition", e.cell.repetition());
            c.put("state", e.state.label());
            c.put("reason", e.reason);
            c.put("attempts", e.attempts);
            c.put("startedAt", e.startedAt);
            c.put("wallSeconds", e.wallSeconds);
            c.put("measuredSeconds", e.measuredSeconds);
            c.put("overheadSeconds", e.overheadSeconds);
            c.put("throughput", e.throughput);
            ObjectNode phases = c.putObject("phaseSeconds");
            e.phaseSeconds.forEach((phase, seconds) -> phases.put(phase, Math.round(seconds * 1000) / 1000.0));
        }
        Files.createDirectories(dir);
        Path tmp = dir.resolve(FILE + ".tmp");
        JSON.writeValue(tmp.toFile(), root);
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(node -> values.add(node.asText()));
        return values;
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Double number(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asDouble();
    }
}
