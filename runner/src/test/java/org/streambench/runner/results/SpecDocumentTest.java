package org.streambench.runner.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.model.RunDocument;
import org.streambench.operators.AccessMode;
import org.streambench.operators.ExperimentSpec;

/**
 * The job's spec and the spec result.json records are two forms of one thing: every field of the
 * job's spec but where its job reports (its endpoint, the runner's collector) is in the document,
 * under the same name and with the same value (the password masked). A field added to one and not
 * the other fails here, not in a result file nobody reads.
 */
class SpecDocumentTest {

    private static final Set<String> ONLY_THE_JOB_NEEDS = Set.of("metricsHost", "metricsPort", "collector");

    @Test
    void theDocumentHoldsEveryFieldOfTheJobsSpecButItsAddresses() {
        List<String> job = Arrays.stream(ExperimentSpec.class.getRecordComponents())
                .map(RecordComponent::getName)
                .filter(name -> !ONLY_THE_JOB_NEEDS.contains(name))
                .sorted()
                .toList();
        List<String> document = Arrays.stream(RunDocument.Spec.class.getRecordComponents())
                .map(RecordComponent::getName)
                .sorted()
                .toList();
        assertEquals(job, document);
    }

    @Test
    void everyFieldKeepsItsValueAndOnlyThePasswordIsMasked() throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("spark", "hbase", Pattern.MIXED)
                .blobBytes(10_000)
                .durationSeconds(31)
                .warmupSeconds(7)
                .rate(1234.5)
                .keys(4321)
                .parallelism(3)
                .generatorParallelism(2)
                .seed(99)
                .runToken(17)
                .recordsPerGenerator(555)
                .metricsHost("10.0.0.9")
                .metricsPort(9999)
                .collector("http://127.0.0.1:1/")
                .databaseSettings(Map.of("url", "jdbc:x", "password", "secret"))
                .engineSettings(Map.of("batchIntervalMillis", "200"))
                .access(AccessMode.parse("batch:16"))
                .build();
        RunDocument.Spec document = ResultFiles.spec(spec);
        for (RecordComponent field : RunDocument.Spec.class.getRecordComponents()) {
            Object recorded = field.getAccessor().invoke(document);
            Object given = ExperimentSpec.class.getMethod(field.getName()).invoke(spec);
            Object expected =
                    switch (field.getName()) {
                        case "pattern" -> ((Pattern) given).cliName();
                        case "access" -> given.toString();
                        case "databaseSettings" -> {
                            Map<String, String> masked = new LinkedHashMap<>(spec.databaseSettings());
                            masked.put("password", "***");
                            yield masked;
                        }
                        default -> given;
                    };
            assertEquals(expected, recorded, field.getName());
        }
    }
}
