package org.streambench.operators;

import java.util.Map;
import org.streambench.generator.KeyDistribution;
import org.streambench.generator.Pattern;

/** Specs for tests (in the test-jar): one with every field set to a value that is not its default. */
public final class ExperimentSpecs {

    public static final ExperimentSpec EVERY_FIELD_SET = ExperimentSpec.builder("spark", "mariadb", Pattern.MIXED)
            .blobBytes(10_000)
            .durationSeconds(45)
            .warmupSeconds(15)
            .rate(1234.5)
            .keys(2000)
            .keyDistribution(KeyDistribution.parse("hotspot:0.2/0.8"))
            .parallelism(3)
            .generatorParallelism(2)
            .seed(99)
            .runToken(41)
            .recordsPerGenerator(500)
            .metricsHost("0.0.0.0")
            .metricsPort(9401)
            .collector("http://runner:4000/")
            .databaseSettings(Map.of("url", "jdbc:mariadb://db:3306/bench", "user", "bench"))
            .engineSettings(Map.of("batchIntervalMillis", "500"))
            .access(AccessMode.parse("batch:16"))
            .guarantee(Guarantee.AT_LEAST_ONCE)
            .checkpointIntervalMillis(2500)
            .fault(Fault.parse("fail-task@7s"))
            .build();

    private ExperimentSpecs() {}
}
