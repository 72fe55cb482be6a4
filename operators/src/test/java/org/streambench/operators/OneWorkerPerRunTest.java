package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;

/**
 * A job JVM has one worker per run, also between the worker's close and the JVM's end: a Spark task
 * that ran then once started a second worker, whose unfinished status failed a finished bounded run
 * ("the spark job process exited with code 0").
 */
class OneWorkerPerRunTest {

    @Test
    void aWorkerThatOwnsItsJvmIsStillItsRunsWorkerAfterItClosed() throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .keys(10)
                .seed(7)
                .runToken(4711)
                .build();
        JobRuntime runtime = JobRuntime.start(spec);
        runtime.ownJvm();
        runtime.close();

        assertSame(runtime, JobRuntime.of(spec), "an operator instance asking after the close gets no new worker");
    }
}
