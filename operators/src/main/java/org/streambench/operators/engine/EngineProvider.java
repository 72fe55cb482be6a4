package org.streambench.operators.engine;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;

/**
 * A stream processing engine the suite can run: everything about one engine that the runner needs,
 * implemented in the engine's own folder ({@code flink-job/}, ...) beside its job, and registered in
 * its {@code META-INF/services/org.streambench.operators.engine.EngineProvider}. The runner finds it
 * in the engine module's compiled classes and loads only this class (and what it references here:
 * the operators and the JDK), never the engine's own classpath, which runs in the job's JVM.
 */
public interface EngineProvider {

    /** The name on the command line and in result files, e.g. {@code flink}. */
    String name();

    /**
     * Where this engine stands in every list of engines (help texts, the matrix's default axis,
     * reports), lowest first; the study's three come first, in the study's order (10, 20, 30).
     */
    int order();

    /** Whether the study measured this engine: the default matrix runs these. */
    default boolean inStudy() {
        return false;
    }

    /** The engine's Maven module, relative to the checkout: the job JVM runs on its classpath. */
    String module();

    /** The job's main class, which takes the spec file as its one argument. */
    String mainClass();

    /** JVM flags of the job's JVM (JDK 17 needs some engines to open packages). */
    default List<String> jvmFlags() {
        return List.of();
    }

    /** Environment variables of the job's JVM. */
    default Map<String, String> environment() {
        return Map.of();
    }

    /** The engine's settings ({@code --engine-setting KEY=VALUE}) and their defaults; no other key is accepted. */
    default Map<String, String> defaultSettings() {
        return Map.of();
    }

    /**
     * Checks the engine's settings (its defaults overridden by the user's) before anything starts;
     * throws {@link IllegalArgumentException} with a one-line message for the user.
     */
    default void checkSettings(Map<String, String> settings) {}

    /** The guarantees this engine gives ({@code none} always); any other is refused before anything starts. */
    default Set<Guarantee> guarantees() {
        return EnumSet.of(Guarantee.NONE);
    }

    /**
     * Checks that {@code guarantee}, one of {@link #guarantees}, holds with the engine's
     * {@code settings} before anything starts; throws {@link IllegalArgumentException} with a
     * one-line message for the user.
     */
    default void checkGuarantee(Guarantee guarantee, Map<String, String> settings) {}

    /** Whether the engine's job injects the spec's {@code --fault}; a fault is refused for an engine that does not. */
    default boolean injectsFaults() {
        return false;
    }

    /**
     * Whether {@code guarantee}, and a {@code --fault} with it, work with {@code --cluster yarn}: the
     * engine's recovery in the cluster's containers, and the audit after it, tried on the suite's YARN.
     */
    default boolean recoversOnYarn(Guarantee guarantee) {
        return false;
    }

    /**
     * Whether the engine replaces a worker JVM that is killed ({@code --fault kill-worker}) and
     * restores in the new one what the killed one held, its generator instances' positions among
     * it, so that its guarantee holds; tried on the suite's YARN.
     */
    default boolean recoversAKilledWorker() {
        return false;
    }

    /**
     * How often, in milliseconds, exactly-once commits the records to the database: when their
     * effects become visible and they count as processed. By default with each checkpoint.
     */
    default long exactlyOnceCommitMillis(ExperimentSpec spec) {
        return spec.checkpointIntervalMillis();
    }

    /** The engine's own settings for the spec's guarantee, by the engine's names (result.json shows them). */
    default Map<String, String> guaranteeSettings(ExperimentSpec spec) {
        return Map.of();
    }

    /**
     * A floor that the engine's {@code settings} (its defaults overridden by the user's) put under a
     * record's end-to-end latency, if any: {@code bench capacity} refuses an objective below a floor
     * that holds at every rate, and warns of one that holds only at rates too low to fill a buffer.
     */
    default Optional<LatencyFloor> latencyFloor(Map<String, String> settings) {
        return Optional.empty();
    }

    /**
     * A latency floor of an engine setting.
     *
     * @param millis      the floor
     * @param setting     the engine setting that sets it ({@code --engine-setting KEY=VALUE})
     * @param cause       what makes it, as a clause: "a record waits for its micro-batch"
     * @param atEveryRate true when no rate gets below it; false when it holds at low rates only
     * @param lowest      the setting's lowest value, the smallest floor it gives
     */
    record LatencyFloor(long millis, String setting, String cause, boolean atEveryRate, long lowest) {}

    /**
     * The command of a JVM that submits the job to YARN and waits until its application ends;
     * its settings go to {@link YarnJob#settingsFile}.
     */
    List<String> yarnSubmitCommand(YarnJob job) throws IOException;
}
