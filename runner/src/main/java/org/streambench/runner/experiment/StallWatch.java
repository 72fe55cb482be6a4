package org.streambench.runner.experiment;

import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Asks, while a run's job processes nothing, whether the database still answers a new connection:
 * a server frozen for a while (stopped, swapping, stalled on its disk) is found while it is frozen.
 * Asked only after the run, it has thawed and answers, and the run's failure ("no record was
 * processed") would not say why. One question at a time, in the background, so sampling goes on.
 */
final class StallWatch implements AutoCloseable {

    /** A watch that never asks: for runs without a database session. */
    static final StallWatch NONE = new StallWatch(Optional::empty);

    private final Supplier<Optional<String>> probe;
    private final AtomicReference<String> finding = new AtomicReference<>();
    private ExecutorService executor;
    private Future<?> asking;

    /** {@code probe}: why the database does not answer, or empty if it does. */
    StallWatch(Supplier<Optional<String>> probe) {
        this.probe = probe;
    }

    /** The job's {@code second}-th second processed {@code records}: with none, the database is asked (unless a question is open). */
    void second(int second, long records) {
        if (this == NONE || records > 0 || finding.get() != null || (asking != null && !asking.isDone())) {
            return;
        }
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(task -> {
                Thread thread = new Thread(task, "database-stall-watch");
                thread.setDaemon(true);
                return thread;
            });
        }
        asking = executor.submit(() -> probe.get()
                .ifPresent(problem -> finding.compareAndSet(
                        null, "in second " + second + " of the run, when the job processed nothing, " + problem)));
    }

    /** What a question found, if one found the database not answering. */
    Optional<String> finding() {
        return Optional.ofNullable(finding.get());
    }

    @Override
    public void close() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
