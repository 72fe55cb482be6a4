package org.streambench.operators;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A worker's link to the runner's collector: it pushes the worker's status every {@value
 * #PUSH_MILLIS} ms (every {@value #ALONE_PUSH_MILLIS} ms while the worker is the job's only one) and
 * whenever the worker asks, and hands the collector's answer (the run's control state and what the
 * other workers last reported) to the worker. A collector that stops answering is reported once; a
 * worker that owns its JVM ends it when the collector has not answered for {@value
 * #RUNNER_GONE_MILLIS} ms: the runner is gone.
 */
final class CollectorPush implements AutoCloseable {

    static final long PUSH_MILLIS = 100;
    /**
     * A worker that is the job's only one needs nobody else's counts and pushes only to show it
     * is alive, and when something changes (a generator ended, a failure, its final status):
     * pushing ten times a second cost a job on the noop database about 10 % of its throughput on
     * a 2-core machine (measured with Flink).
     */
    static final long ALONE_PUSH_MILLIS = 1_000;
    /**
     * A collector that has not answered this long means the runner is gone (killed, crashed, its
     * machine lost): a worker that owns its JVM ends it then, so a job left without its runner
     * stops writing to the database, also on a cluster where no one else would stop it.
     */
    static final long RUNNER_GONE_MILLIS = 10_000;

    private static final long ALONE_PUSH_NANOS = TimeUnit.MILLISECONDS.toNanos(ALONE_PUSH_MILLIS);
    private static final Duration PUSH_TIMEOUT = Duration.ofSeconds(5);

    private final String collector;
    private final String workerId;
    private final Supplier<WorkerStatus> status;
    private final Consumer<WorkerStatus.View> onAnswer;
    private final Runnable afterPeriodicPush;
    private final BooleanSupplier ownsJvm;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(PUSH_TIMEOUT).build();
    private final ScheduledExecutorService pusher =
            Executors.newSingleThreadScheduledExecutor(JobRuntime.daemon("streambench-worker-push"));
    private ScheduledFuture<?> periodicPush;
    private volatile WorkerStatus.View view = WorkerStatus.View.ALONE;
    private volatile long lastPushNanos;
    private long failingSinceNanos; // guarded by client; 0 while pushes succeed

    /**
     * @param status            the worker's status as it is pushed
     * @param onAnswer          takes in each answer of the collector (after {@link #view()} has it)
     * @param afterPeriodicPush what the worker checks after each periodic push (e.g. whether it is done)
     * @param ownsJvm           whether the worker may end its JVM when the runner is gone
     */
    private CollectorPush(
            String collector,
            String workerId,
            Supplier<WorkerStatus> status,
            Consumer<WorkerStatus.View> onAnswer,
            Runnable afterPeriodicPush,
            BooleanSupplier ownsJvm) {
        this.collector = collector;
        this.workerId = workerId;
        this.status = status;
        this.onAnswer = onAnswer;
        this.afterPeriodicPush = afterPeriodicPush;
        this.ownsJvm = ownsJvm;
    }

    /** Registers the worker with a first push, then pushes periodically. */
    static CollectorPush start(
            String collector,
            String workerId,
            Supplier<WorkerStatus> status,
            Consumer<WorkerStatus.View> onAnswer,
            Runnable afterPeriodicPush,
            BooleanSupplier ownsJvm) {
        CollectorPush push = new CollectorPush(collector, workerId, status, onAnswer, afterPeriodicPush, ownsJvm);
        // the first push registers the worker before any operator of this JVM does anything
        push.pushNow();
        push.periodicPush = push.pusher.scheduleWithFixedDelay(
                push::pushPeriodically, PUSH_MILLIS, PUSH_MILLIS, TimeUnit.MILLISECONDS);
        return push;
    }

    /** The collector's last answer: the run's control state and the other workers' counts. */
    WorkerStatus.View view() {
        return view;
    }

    private void pushPeriodically() {
        try {
            if (view.workers() > 1 || System.nanoTime() - lastPushNanos >= ALONE_PUSH_NANOS) {
                pushNow();
            }
            afterPeriodicPush.run();
        } catch (RuntimeException e) {
            // a periodic task that throws is never run again: the worker would fall silent
            System.err.println("streambench: worker " + workerId + ": " + e);
        }
    }

    /** Pushes on the push thread, without waiting; nothing once closed (the job is over and its statuses are in). */
    void pushSoon() {
        try {
            pusher.execute(this::pushNow);
        } catch (RejectedExecutionException closed) {
            // closed: nothing more to push
        }
    }

    /** Pushes the worker's status and takes in the collector's answer; a failure is reported, not thrown. */
    void pushNow() {
        synchronized (client) {
            lastPushNanos = System.nanoTime();
            try {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(URI.create(collector + JobProtocol.PUSH_PATH))
                                .timeout(PUSH_TIMEOUT)
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        status.get().toText()))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new IOException("the collector answered " + response.statusCode() + ": " + response.body());
                }
                WorkerStatus.View answer = WorkerStatus.View.fromText(response.body());
                view = answer;
                onAnswer.accept(answer);
                failingSinceNanos = 0;
            } catch (IOException | RuntimeException e) {
                unreachable(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void unreachable(Exception e) {
        long now = System.nanoTime();
        if (failingSinceNanos == 0) {
            failingSinceNanos = now;
            System.err.println(
                    "streambench: worker " + workerId + " cannot reach the collector " + collector + ": " + e);
        } else if (ownsJvm.getAsBoolean()
                && now - failingSinceNanos > TimeUnit.MILLISECONDS.toNanos(RUNNER_GONE_MILLIS)) {
            System.err.println("streambench: the runner's collector " + collector + " has not answered for "
                    + RUNNER_GONE_MILLIS / 1000 + " s: the runner is gone; ending this JVM");
            Halt.now(3);
        }
    }

    @Override
    public void close() {
        if (periodicPush != null) {
            periodicPush.cancel(false);
        }
        pusher.shutdownNow();
    }
}
