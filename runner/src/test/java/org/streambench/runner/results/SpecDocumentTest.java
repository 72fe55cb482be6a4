package org.streambench.runner.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.streambench.generator.KeyDistribution;
import org.streambench.generator.Pattern;
import org.streambench.model.RunDocument;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.ExperimentSpecs;
import org.streambench.operators.Guarantee;

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
        Map<String, String> withPassword = new LinkedHashMap<>(ExperimentSpecs.EVERY_FIELD_SET.databaseSettings());
        withPassword.put("password", "secret");
        ExperimentSpec spec = ExperimentSpecs.EVERY_FIELD_SET.withDatabaseSettings(withPassword);
        RunDocument.Spec document = ResultFiles.spec(spec);
        for (RecordComponent field : RunDocument.Spec.class.getRecordComponents()) {
            Object recorded = field.getAccessor().invoke(document);
            Object given = ExperimentSpec.class.getMethod(field.getName()).invoke(spec);
            Object expected =
                    switch (field.getName()) {
                        case "pattern" -> ((Pattern) given).cliName();
                        case "access", "fault" -> given.toString();
                        case "guarantee" -> ((Guarantee) given).cliName();
                        case "keyDistribution" -> ((KeyDistribution) given).cliName();
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
