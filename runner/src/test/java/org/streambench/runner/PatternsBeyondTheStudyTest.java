package org.streambench.runner;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The databases the study did not measure run every pattern verified on every engine, in one
 * synchronous call per record (mixed is AllPairsTest's). Apart from {@link AccessModesTest}'s grid
 * so that the "modes" suite's two test JVMs share the runs.
 */
@Tag("integration")
class PatternsBeyondTheStudyTest {

    static Stream<Arguments> patternsBeyondStudy() {
        return Registries.databasesBeyondStudy().stream().flatMap(database -> Registries.engines().stream()
                .flatMap(engine ->
                        Stream.of("read", "insert", "update").map(pattern -> Arguments.of(engine, database, pattern))));
    }

    @Tag("modes")
    @ParameterizedTest(name = "{0} x {1} x {2}")
    @MethodSource("patternsBeyondStudy")
    void everyPatternVerifiesOnTheDatabasesBeyondTheStudy(
            String engine, String database, String pattern, @TempDir Path tmp) throws Exception {
        AccessModesTest.boundedRun(engine, database, "sync", pattern, tmp);
    }
}
