package org.streambench.runner.experiment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.streambench.db.Database;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;
import org.streambench.model.RunDocument.Audit;
import org.streambench.operators.ExperimentSpec;

/**
 * The audit of a run with a guarantee: every existing key the run updated is read back and
 * compared with what applying each of its records once leaves (the prefill plus the sum of its
 * records, which the deterministic generators replay). A key that differs is explained, if it can
 * be, by records applied twice or never: an engine replays a generator instance from its
 * checkpointed position, so what one instance's recovery duplicates or loses for a key is a run of
 * consecutive records of that key from that instance. The integer fields identify such runs (three
 * sums of values in [0, 1000)); a difference that no combination of one run per instance explains
 * is an unexplained key, counted apart.
 */
final class RecoveryAudit {

    private static final int READ_CHUNK = 1000;
    private static final int MAX_DETAILS = 20;
    /** Differences tried per key; beyond it a key counts as unexplained. */
    private static final int MAX_COMBINATIONS = 200_000;

    private final ExperimentSpec spec;
    private final Map<Integer, Long> emittedByInstance;

    RecoveryAudit(ExperimentSpec spec, Map<Integer, Long> emittedByInstance) {
        this.spec = spec;
        this.emittedByInstance = new TreeMap<>(emittedByInstance);
    }

    /** Reads every key the run updated from {@code database} and counts duplicates, losses and unexplained keys. */
    Audit audit(Database database) {
        if (spec.pattern() != Pattern.UPDATE && spec.pattern() != Pattern.MIXED) {
            return new Audit(0, 0, 0, 0, List.of());
        }
        Map<String, Sums> expected = new HashMap<>();
        forEachUpdate((instance, seq, record) -> expected.merge(record.id(), Sums.of(record), Sums::plus));
        expected.replaceAll((id, sum) -> sum.plus(Sums.of(RecordGenerator.prefill(Keys.existingIndex(id)))));
        Map<String, Sums> differences = new HashMap<>();
        List<String> ids = new ArrayList<>(expected.keySet());
        for (int from = 0; from < ids.size(); from += READ_CHUNK) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + READ_CHUNK));
            Map<String, StoredRecord> stored = database.readAll(chunk);
            for (String id : chunk) {
                StoredRecord got = stored.get(id);
                Sums difference = got == null ? null : Sums.of(got.record()).minus(expected.get(id));
                if (difference == null || !difference.isZero()) {
                    differences.put(id, difference);
                }
            }
        }
        return explain(ids.size(), differences);
    }

    private Audit explain(long audited, Map<String, Sums> differences) {
        Map<String, Map<Integer, List<Sums>>> recordsOf = new HashMap<>();
        Set<String> differing = new HashSet<>(differences.keySet());
        forEachUpdate((instance, seq, record) -> {
            if (differing.contains(record.id())) {
                recordsOf
                        .computeIfAbsent(record.id(), id -> new TreeMap<>())
                        .computeIfAbsent(instance, i -> new ArrayList<>())
                        .add(Sums.of(record));
            }
        });
        long duplicates = 0;
        long losses = 0;
        long unexplained = 0;
        List<String> details = new ArrayList<>();
        List<String> explainedDetails = new ArrayList<>();
        for (Map.Entry<String, Sums> key : new TreeMap<>(differences).entrySet()) {
            String id = key.getKey();
            Optional<long[]> counts = key.getValue() == null
                    ? Optional.empty()
                    : explain(key.getValue(), recordsOf.get(id).values());
            if (counts.isPresent()) {
                duplicates += counts.get()[0];
                losses += counts.get()[1];
                if (explainedDetails.size() < MAX_DETAILS) {
                    explainedDetails.add(id + ": " + counts.get()[0] + " records applied twice, " + counts.get()[1]
                            + " not applied");
                }
            } else {
                unexplained++;
                if (details.size() < MAX_DETAILS) {
                    details.add(id
                            + (key.getValue() == null
                                    ? " is missing"
                                    : " differs by " + key.getValue() + ", which no replay of its records explains"));
                }
            }
        }
        // the keys nothing explains first: they are what a reader of a failed audit looks for
        explainedDetails.stream().limit(MAX_DETAILS - details.size()).forEach(details::add);
        return new Audit(audited, duplicates, losses, unexplained, List.copyOf(details));
    }

    /**
     * The records applied twice and never ({duplicates, losses}) that make up {@code difference}: one
     * run of consecutive records (or none) per instance, added (applied twice) or taken away (lost);
     * the explanation with the fewest records.
     */
    static Optional<long[]> explain(Sums difference, Iterable<List<Sums>> recordsByInstance) {
        Map<Sums, long[]> reachable = new HashMap<>();
        reachable.put(Sums.ZERO, new long[] {0, 0});
        for (List<Sums> records : recordsByInstance) {
            Map<Sums, long[]> next = new HashMap<>(reachable);
            for (int from = 0; from < records.size(); from++) {
                Sums run = Sums.ZERO;
                for (int to = from; to < records.size(); to++) {
                    run = run.plus(records.get(to));
                    long length = to - from + 1L;
                    for (Map.Entry<Sums, long[]> known : reachable.entrySet()) {
                        long[] counts = known.getValue();
                        keepFewest(next, known.getKey().plus(run), new long[] {counts[0] + length, counts[1]});
                        keepFewest(next, known.getKey().minus(run), new long[] {counts[0], counts[1] + length});
                    }
                    if (next.size() > MAX_COMBINATIONS) {
                        return Optional.ofNullable(next.get(difference));
                    }
                }
            }
            reachable = next;
        }
        return Optional.ofNullable(reachable.get(difference));
    }

    private static void keepFewest(Map<Sums, long[]> reachable, Sums sums, long[] counts) {
        reachable.merge(sums, counts, (a, b) -> a[0] + a[1] <= b[0] + b[1] ? a : b);
    }

    private interface UpdateVisitor {
        void visit(int instance, long seq, SensorRecord record);
    }

    /** Every record of the run that updated an existing key, instance by instance, in sequence order. */
    private void forEachUpdate(UpdateVisitor visitor) {
        for (Map.Entry<Integer, Long> instance : emittedByInstance.entrySet()) {
            RecordGenerator generator = spec.recordGenerator(instance.getKey());
            for (long seq = 0; seq < instance.getValue(); seq++) {
                if (!generator.isNewKey(seq)) {
                    visitor.visit(instance.getKey(), seq, generator.record(seq));
                }
            }
        }
    }

    /** A key's three integer fields, summed: what identifies the records applied to it. */
    record Sums(long int1, long int2, long int3) {
        static final Sums ZERO = new Sums(0, 0, 0);

        static Sums of(SensorRecord record) {
            return new Sums(record.int1(), record.int2(), record.int3());
        }

        Sums plus(Sums other) {
            return new Sums(int1 + other.int1, int2 + other.int2, int3 + other.int3);
        }

        Sums minus(Sums other) {
            return new Sums(int1 - other.int1, int2 - other.int2, int3 - other.int3);
        }

        boolean isZero() {
            return int1 == 0 && int2 == 0 && int3 == 0;
        }

        @Override
        public String toString() {
            return "(" + int1 + ", " + int2 + ", " + int3 + ")";
        }
    }
}
