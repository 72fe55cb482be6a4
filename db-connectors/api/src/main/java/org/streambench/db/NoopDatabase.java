package org.streambench.db;

import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;

/**
 * Accepts every call and stores nothing, so a run against it measures the harness's own
 * ceiling (generator, engine hand-over, operator, metrics). Reads find exactly the keys of the
 * prefilled space, so every pattern takes the same code path as against a real database.
 */
public final class NoopDatabase implements Database {

    private static final byte[] EMPTY = new byte[0];

    @Override
    public void open(DatabaseSettings settings) {
    }

    @Override
    public void resetSchema() {
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, byte[] blob) {
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        return Keys.isExisting(id)
                ? Optional.of(new StoredRecord(new SensorRecord(id, 0, 0, 0, 0, 0, 0), EMPTY))
                : Optional.empty();
    }

    @Override
    public void insert(SensorRecord record, byte[] blob) {
    }

    @Override
    public void update(SensorRecord record, byte[] blob) {
    }

    @Override
    public long countRows() {
        return 0;
    }

    @Override
    public long countBlobsNotOfLength(int length) {
        return 0;
    }

    @Override
    public String serverVersion() {
        return "noop (stores nothing)";
    }

    @Override
    public void close() {
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "noop";
        }

        @Override
        public Database create() {
            return new NoopDatabase();
        }

        @Override
        public List<String> settingNames() {
            return List.of();
        }

        @Override
        public boolean storesData() {
            return false;
        }
    }
}
