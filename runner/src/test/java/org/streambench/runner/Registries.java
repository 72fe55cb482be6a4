package org.streambench.runner;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.streambench.db.Databases;
import org.streambench.runner.experiment.Engines;
import org.streambench.servers.LocalServers;

/**
 * What the tests run over, from the registries: every engine, and every database the suite can
 * start a server for. A new engine or database folder is tested by every such test without a line here.
 */
public final class Registries {

    private Registries() {}

    /** For {@code @MethodSource("org.streambench.runner.Registries#engines")}. */
    public static List<String> engines() {
        return Engines.names();
    }

    /** For {@code @MethodSource("org.streambench.runner.Registries#databases")}: databases with a local server. */
    public static List<String> databases() {
        return LocalServers.supported();
    }

    /** The databases whose writes are not upserts ({@code Database#writesAreUpserts}): a duplicate key is an error. */
    public static List<String> databasesRejectingDuplicates() {
        return databases().stream()
                .filter(database ->
                        !Databases.provider(database).orElseThrow().create().writesAreUpserts())
                .toList();
    }

    /** Databases with a local server that the study did not measure (in-memory stores, grids). */
    public static List<String> databasesBeyondStudy() {
        return databases().stream()
                .filter(database -> !Databases.provider(database).orElseThrow().inStudy())
                .toList();
    }

    /**
     * What a test expects of {@code engine}, from the test's own table: a new engine that the
     * registry hands the test fails it with the table to fill in, not with a NullPointerException.
     */
    public static <T> T expectedOf(Map<String, T> byEngine, String engine, String table) {
        T expected = byEngine.get(engine);
        if (expected == null) {
            throw new AssertionError(table + ": no entry for the engine '" + engine + "' in this test; give it one");
        }
        return expected;
    }

    /** Every engine x database pair, databases first. */
    public static Stream<Arguments> pairs() {
        return databases().stream()
                .flatMap(database -> engines().stream().map(engine -> Arguments.of(engine, database)));
    }
}
