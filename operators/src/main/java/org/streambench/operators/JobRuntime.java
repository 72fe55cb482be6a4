package org.streambench.operators;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.streambench.generator.EpochClock;

/**
 * One worker of a running job: the state that every operator instance the engine runs in this
 * JVM for this run shares (metrics, generator counts, the start gate and the stop), the worker's
 * HTTP endpoint, and its link to the runner's collector.
 * <p>
 * A job has one worker per JVM that hosts its operators: locally the job's one JVM, on a cluster
 * every TaskManager, executor or container. The job's main starts the first ({@link #start});
 * operator instances that an engine created from their serialized form get their JVM's worker
 * with {@link #of}, which starts one if the JVM has none yet. Every worker pushes its counts to
 * the collector ({@link CollectorPush}) periodically and when something changes, and its final counts
 * and latency histograms when the job is complete; the collector answers with the run's control
 * state and what the other workers last reported, from which each worker knows whether the whole
 * job is done and drained. Without a collector (a runtime in a test) the worker is the whole job.
 * Its endpoint ({@link ControlEndpoint}) serves the metrics and takes the runner's start, measure and stop.
 */
public final class JobRuntime implements AutoCloseable {

    private static final long RATE_SAMPLE_NANOS = 250_000_000;
    private static final long START_POLL_MILLIS = 50;
    /** How a shell reports a process that SIGKILL ended (128 + 9). */
    private static final int SIGKILLED_STATUS = 137;

    /**
     * The workers of the runs this JVM takes part in, by run. Engines create operator instances
     * from their serialized form, with no reference to anything the job's main made; this map is
     * how the instances of one run in one JVM find their common worker.
     */
    private static final Map<String, JobRuntime> WORKERS = new ConcurrentHashMap<>();

    private static final AtomicInteger WORKERS_STARTED = new AtomicInteger();

    private final String run;
    private final String workerId;
    private final ExperimentSpec spec;
    private final OperatorMetrics metrics;
    private final Map<Integer, AtomicLong> emittedByInstance = new ConcurrentHashMap<>();
    private final Set<Integer> endedInstances = ConcurrentHashMap.newKeySet();
    private final Map<Integer, ProcessingOperator> processingByPartition = new ConcurrentHashMap<>();
    private final Set<String> setUp = ConcurrentHashMap.newKeySet();
    private final ControlEndpoint endpoint;
    private final CountDownLatch startGate;
    private final CollectorPush push; // null without a collector: the worker is the whole job
    private volatile boolean finalPushed;
    private volatile boolean finishesWithItsPipeline;
    private volatile boolean ownsJvm;
    private volatile String engineVersion;
    private volatile boolean stopRequested;
    private volatile OperatorMetrics.LatencyWindow measuredWindow;
    private volatile String failure;
    private volatile String lastInstanceFailure;
    private volatile Consumer<String> onFailure = reason -> {};
    private final Object rateLock = new Object();
    private volatile long rateSampleNanos = System.nanoTime() - RATE_SAMPLE_NANOS;
    private long rateSampleHandled = -1; // guarded by rateLock
    private volatile double handledPerSecond;
    /** When this JVM's generators emitted their first record, on the job's clock ({@link EpochClock}, ms); 0 before. */
    private final AtomicLong emittingSinceEpochMillis = new AtomicLong();
    /** This worker's operators found the fault due and asked the collector for it. */
    private volatile boolean claimsFault;

    private final AtomicBoolean faultInjected = new AtomicBoolean();
    /** When the injected fault fired, on the job's clock ({@link EpochClock}, ms); 0 before. */
    private final AtomicLong faultInjectedAtEpochMillis = new AtomicLong();

    private final AtomicLong restartedInstances = new AtomicLong();
    /** When this JVM was told to end before its worker's final status, on the job's clock (ms); 0 before. */
    private final AtomicLong endedByEngineAtEpochMillis = new AtomicLong();

    private JobRuntime(ExperimentSpec spec, boolean awaitStart, int port) throws IOException {
        this.spec = spec;
        this.run = runOf(spec);
        this.workerId = newWorkerId();
        this.startGate = new CountDownLatch(awaitStart ? 1 : 0);
        this.metrics = new OperatorMetrics(spec, workerId, this::totalEmitted);
        this.endpoint = ControlEndpoint.start(spec.metricsHost(), port, new ControlEndpoint.Actions() {
            @Override
            public String scrape() {
                return metrics.scrape();
            }

            @Override
            public void start() {
                startGate.countDown();
            }

            @Override
            public void measure() {
                metrics.resetLatencyWindow();
            }

            @Override
            public void stop() {
                requestStop();
            }
        });
        this.push = spec.collector().isEmpty()
                ? null
                : CollectorPush.start(
                        spec.collector(),
                        workerId,
                        this::status,
                        this::takeAnswer,
                        this::finishIfComplete,
                        () -> ownsJvm);
    }

    /** The collector's answer: the runner's start and stop. */
    private void takeAnswer(WorkerStatus.View answer) {
        if (answer.started()) {
            startGate.countDown();
        }
        if (answer.stopRequested()) {
            requestStop();
        }
    }

    private void finishIfComplete() {
        if (!finalPushed && !finishesWithItsPipeline && complete()) {
            finish();
        }
    }

    /** What the other workers last reported, as the collector told; alone without a collector. */
    private WorkerStatus.View view() {
        return push == null ? WorkerStatus.View.ALONE : push.view();
    }

    /** Starts the job's first worker with its generators free to emit at once. */
    public static JobRuntime start(ExperimentSpec spec) throws IOException {
        return start(spec, false);
    }

    /**
     * Starts the job's first worker, on the spec's metrics port; the job's main calls it once,
     * before the engine starts. With {@code awaitStart}, generators emit nothing until
     * {@code POST /start}: the runner launches the job while it prefills the database, so the
     * engine's start-up overlaps the prefill.
     */
    public static JobRuntime start(ExperimentSpec spec, boolean awaitStart) throws IOException {
        synchronized (WORKERS) {
            if (WORKERS.containsKey(runOf(spec))) {
                throw new IllegalStateException("this JVM already has a worker of this run");
            }
            JobRuntime runtime = new JobRuntime(spec, awaitStart, spec.metricsPort());
            WORKERS.put(runtime.run, runtime);
            return runtime;
        }
    }

    /**
     * This JVM's worker of the spec's run, for operator instances: the one the job's main
     * started, or a new one on a free port (a JVM of the cluster that hosts only operators).
     * A new worker waits for the runner's start if the run has a collector to learn it from.
     */
    public static JobRuntime of(ExperimentSpec spec) {
        synchronized (WORKERS) {
            JobRuntime existing = WORKERS.get(runOf(spec));
            if (existing != null) {
                return existing;
            }
            try {
                JobRuntime runtime = new JobRuntime(spec, !spec.collector().isEmpty(), 0);
                runtime.ownJvm();
                WORKERS.put(runtime.run, runtime);
                return runtime;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start this JVM's streambench worker", e);
            }
        }
    }

    private static String runOf(ExperimentSpec spec) {
        return spec.collector().isEmpty() ? "runToken=" + spec.runToken() : spec.collector();
    }

    private static String newWorkerId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        int sequence = WORKERS_STARTED.incrementAndGet();
        return host + ":" + ProcessHandle.current().pid() + (sequence == 1 ? "" : "/" + sequence);
    }

    static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    void engineVersion(String version) {
        this.engineVersion = version;
    }

    public ExperimentSpec spec() {
        return spec;
    }

    public OperatorMetrics metrics() {
        return metrics;
    }

    public boolean stopRequested() {
        return stopRequested;
    }

    /** Whether generators may emit: no start gate, or the runner opened it. */
    public boolean started() {
        return startGate.getCount() == 0;
    }

    /** A generator of this JVM emits its first record: the time a fault is due counts from the first. */
    void generatorEmitting() {
        emittingSinceEpochMillis.compareAndSet(0, EpochClock.nowNanos() / 1_000_000);
    }

    /**
     * Whether the spec's fault is due now, and this caller is to fire it: true once in the run, for
     * the processing operator instance that takes a record first once it is due. With a collector
     * the fault is due its time after the run's first record, emitted in any JVM, and the
     * collector grants it to one worker, the first to claim it: a run's operators may run in JVMs
     * without a generator (Apex's containers on YARN), and a run of several JVMs fails once.
     * Without one (a runtime in a test) the worker is the whole job, and its own generators' start counts.
     */
    public boolean faultDue() {
        Fault fault = spec.fault();
        if (fault == null || faultInjected.get()) {
            return false;
        }
        WorkerStatus.View view = view();
        long since = WorkerStatus.earliest(emittingSinceEpochMillis.get(), view.emittingSinceEpochMillis());
        if (since == 0 || EpochClock.nowNanos() / 1_000_000 - since < fault.afterMillis()) {
            return false;
        }
        if (push == null) {
            return fire();
        }
        if (view.faultOwner() == null) {
            if (!claimsFault) {
                claimsFault = true;
                push.pushSoon(); // the answer names the worker that got it
            }
            return false;
        }
        return view.faultOwner().equals(workerId) && fire();
    }

    private boolean fire() {
        if (!faultInjected.compareAndSet(false, true)) {
            return false;
        }
        faultInjectedAtEpochMillis.set(EpochClock.nowNanos() / 1_000_000);
        return true;
    }

    /**
     * The run's {@code kill-worker} fault fired in this worker: it pushes its last status (with the
     * fault's time, which tells the collector to expect its silence) and has the operating system
     * SIGKILL its JVM, which ends as a JVM killed from outside does: nothing flushed, closed or run
     * on exit. Without a shell to send the signal, the JVM halts with the status a SIGKILL gives.
     */
    void killThisWorker() {
        pushQuietly();
        try {
            Process kill = new ProcessBuilder(
                            "/bin/sh",
                            "-c",
                            "kill -KILL " + ProcessHandle.current().pid())
                    .redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            System.err.println("streambench: worker " + workerId + " could not SIGKILL itself (" + e + "); halting");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(SIGKILLED_STATUS);
    }

    /** An engine restarted a processing operator instance from its last checkpoint (after a failure, under a guarantee). */
    public void restartedInstance() {
        restartedInstances.incrementAndGet();
        pushQuietly();
    }

    /** Blocks until generators may emit; false if the job is stopping before that. */
    boolean awaitStart() throws InterruptedException {
        while (!startGate.await(START_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            if (stopRequested) {
                return false;
            }
        }
        return !stopRequested;
    }

    public synchronized void requestStop() {
        if (!stopRequested) {
            measuredWindow = metrics.takeLatencyWindow();
            stopRequested = true;
        }
    }

    /**
     * Ends the run as failed: generators stop, the collector learns why at once, and
     * {@code onFailure} runs once (the job's main ends its JVM there, so no further database call
     * is made).
     */
    public void fail(String reason) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = oneLine(reason);
        }
        requestStop();
        pushQuietly();
        onFailure.accept(reason);
    }

    /**
     * Records that an engine set up the operator instance {@code key} in this JVM; false if it had
     * set it up before in this run: the engine redeployed it (recovered it after a failure), so
     * records since its last checkpoint reach the database again.
     */
    public boolean firstSetup(String key) {
        return setUp.add(key);
    }

    /** A database's message over several lines (PostgreSQL's "Position:", "Detail:") as the one line a run's error is. */
    static String oneLine(String reason) {
        return reason.strip()
                .lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .collect(Collectors.joining("; "));
    }

    /**
     * Under a guarantee, a processing instance's database call failed, and the engine recovers:
     * what an engine that gives up after its own attempts (Apex) names as the cause.
     */
    public void instanceFailed(String reason) {
        lastInstanceFailure = oneLine(reason);
    }

    /** The last failure an engine recovered from, or null. */
    public String lastInstanceFailure() {
        return lastInstanceFailure;
    }

    /** Why the run failed, or null. */
    public String failure() {
        return failure;
    }

    void onFailure(Consumer<String> handler) {
        this.onFailure = handler;
    }

    /** The successful reads between {@code /measure} and the stop request (or now, if none came yet). */
    public Histogram measuredLatency() {
        return measuredWindow().successful();
    }

    /** The reads between {@code /measure} and the stop request, by result (hit, miss, failed). */
    public OperatorMetrics.LatencyWindow measuredWindow() {
        OperatorMetrics.LatencyWindow measured = measuredWindow;
        return measured != null ? measured : metrics.takeLatencyWindow();
    }

    AtomicLong emittedCounter(int instance) {
        return emittedByInstance.computeIfAbsent(instance, i -> new AtomicLong());
    }

    /**
     * How far generator instance {@code instance} has come in any attempt: in this JVM, or in
     * another worker's as the collector last said (a restarted instance may run in another JVM).
     */
    long highestEmitted(int instance) {
        return Math.max(
                emittedCounter(instance).get(), view().othersEmittedByInstance().getOrDefault(instance, 0L));
    }

    /** Generator instance {@code instance} of this worker will not emit again; the collector learns it at once. */
    void generatorEnded(int instance) {
        if (endedInstances.add(instance) && push != null) {
            push.pushSoon();
        }
    }

    /** What this worker's generator instances emitted. */
    public Map<Integer, Long> emittedByInstance() {
        Map<Integer, Long> copy = new TreeMap<>();
        emittedByInstance.forEach((instance, count) -> copy.put(instance, count.get()));
        return copy;
    }

    /** What this worker's generator instances emitted, all together. */
    long totalEmitted() {
        return emittedByInstance.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /**
     * Whether no generator of the job will emit again: every instance of the job has ended (a
     * bounded run emitted everything), or the runner asked to stop and every instance that
     * started has ended.
     */
    public boolean generatorsDone() {
        WorkerStatus.View others = view();
        Set<Integer> known = new HashSet<>(emittedByInstance.keySet());
        known.addAll(others.othersEmittedByInstance().keySet());
        for (int instance : known) {
            if (!endedInstances.contains(instance)
                    && !others.othersEndedInstances().contains(instance)) {
                return false;
            }
        }
        return stopRequested || known.size() >= spec.generatorParallelism();
    }

    /** Whether every record the job emitted has been processed, successfully or not. */
    public boolean drained() {
        return inFlight() <= 0;
    }

    /** Whether the job is done: its generators are done and everything they emitted is processed. */
    public boolean complete() {
        return generatorsDone() && drained();
    }

    /** Records the job emitted but has not processed yet (successfully or not), as far as this worker knows. */
    long inFlight() {
        return inFlight(view());
    }

    private long inFlight(WorkerStatus.View others) {
        return jobEmitted(others) - handled() - others.othersHandled();
    }

    /**
     * Records emitted that no processing operator has taken yet, as far as this worker knows: the
     * generators' credit. Unlike {@link #inFlight} it leaves out what exactly-once holds for its
     * checkpoint's commit, in this worker and the others, which waits for the checkpoint, not for
     * the operator.
     */
    long queued() {
        WorkerStatus.View others = view();
        return inFlight(others) - metrics.awaitingCommitCount() - others.othersAwaitingCommit();
    }

    /** Records the whole job processed (successfully or not), as far as this worker knows. */
    long jobHandled() {
        return handled() + view().othersHandled();
    }

    /** Records the whole job emitted, as far as this worker knows. */
    long jobEmitted() {
        return jobEmitted(view());
    }

    /** Each instance once, at the highest count this worker or {@code others} report for it. */
    private long jobEmitted(WorkerStatus.View others) {
        Map<Integer, Long> byInstance = new HashMap<>(others.othersEmittedByInstance());
        WorkerStatus.mergeEmitted(byInstance, emittedByInstance());
        return byInstance.values().stream().mapToLong(Long::longValue).sum();
    }

    private long handled() {
        long handled = metrics.errorCount();
        for (Operation op : Operation.values()) {
            handled += metrics.processedCount(op);
        }
        return handled;
    }

    /**
     * Records the job's processing operators took (successfully or not, committed or waiting for
     * their checkpoint) per second, over the latest interval of at
     * least {@value #RATE_SAMPLE_NANOS} ns; 0 until one has passed.
     */
    double handledPerSecond() {
        long now = System.nanoTime();
        if (now - rateSampleNanos >= RATE_SAMPLE_NANOS) {
            synchronized (rateLock) {
                if (now - rateSampleNanos >= RATE_SAMPLE_NANOS) {
                    long handled = handled() + metrics.awaitingCommitCount() + view().othersHandled();
                    if (rateSampleHandled >= 0) {
                        handledPerSecond = (handled - rateSampleHandled) * 1e9 / (now - rateSampleNanos);
                    }
                    rateSampleHandled = handled;
                    rateSampleNanos = now;
                }
            }
        }
        return handledPerSecond;
    }

    /**
     * Blocks until the job's generators are done; engines that do not end by themselves when
     * their sources end (Spark Streaming, Apex) call this before shutting down.
     */
    public void awaitGeneratorsDone() throws InterruptedException {
        while (!generatorsDone()) {
            Thread.sleep(20);
        }
    }

    /** Waits until every emitted record was processed; false if that took longer than the timeout. */
    public boolean awaitDrained(long timeoutMillis) throws InterruptedException {
        return Polling.until(this::drained, timeoutMillis);
    }

    /**
     * The job is complete: this worker closes its latency window and pushes its final status
     * (it goes on pushing it, so it learns when every worker has).
     */
    public void finish() {
        requestStop();
        finalPushed = true;
        pushQuietly();
    }

    /**
     * This worker, which runs the job's main, finishes when the engine's pipeline has ended, never
     * before: after a restart from a checkpoint, records processed twice count as handled, so the
     * job looks complete while the engine still processes the last of what it replays. The runner
     * ends the job once every final status is in, and would cut those writes off.
     */
    public void finishesWithItsPipeline() {
        finishesWithItsPipeline = true;
    }

    /** Waits until every worker of the job has pushed its final status; false on timeout. */
    public boolean awaitAllFinal(long timeoutMillis) throws InterruptedException {
        return Polling.until(() -> view().allFinal(), timeoutMillis);
    }

    /** This worker's status as it pushes it; with the measured window once it finished. */
    WorkerStatus status() {
        // ended instances first: an instance seen ended has its last record counted in what is read after
        Set<Integer> ended = Set.copyOf(endedInstances);
        Map<Operation, Long> processed = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            processed.put(op, metrics.processedCount(op));
        }
        return new WorkerStatus(
                workerId,
                endpoint.url(),
                engineVersion,
                emittedByInstance(),
                ended,
                processed,
                metrics.errorCount(),
                metrics.awaitingCommitCount(),
                metrics.firstError(),
                failure,
                restartedInstances.get(),
                faultInjectedAtEpochMillis.get(),
                emittingSinceEpochMillis.get(),
                endedByEngineAtEpochMillis.get(),
                claimsFault,
                finalPushed ? measuredWindow() : null);
    }

    /** What this worker alone would report; the runner builds the job's report from every worker's status. */
    public JobReport report(String status, String error, String version) {
        requestStop();
        engineVersion(version);
        finalPushed = true;
        return JobReport.of(status, error, List.of(status()));
    }

    private void pushQuietly() {
        if (push != null) {
            push.pushNow();
        }
    }

    /**
     * This JVM runs for the job only (the job's main, or a worker JVM of a cluster): the worker
     * ends it when the runner is gone. Workers started lazily by {@link #of} own their JVM.
     */
    void ownJvm() {
        if (!ownsJvm) {
            Runtime.getRuntime().addShutdownHook(new Thread(this::endedMidRun, "streambench-worker-ended"));
        }
        this.ownsJvm = true;
    }

    /**
     * This worker's JVM is ending (SIGTERM, an exit) before its final status: an engine replacing
     * its container, as Apex's application master does with an operator's container after the
     * operator failed. The worker tells the collector so before the JVM is gone, which under a
     * guarantee on a cluster takes its silence for the engine's recovery, not for a failure.
     */
    private void endedMidRun() {
        if (!finalPushed && push != null) {
            endedByEngineAtEpochMillis.compareAndSet(0, EpochClock.nowNanos() / 1_000_000);
            push.pushNow();
        }
    }

    /** The processing operator of an engine partition that keeps one for the life of the worker (Spark's). */
    public ProcessingOperator processingOperator(int partition) {
        return processingByPartition.computeIfAbsent(partition, p -> ProcessingOperator.open(this, "partition-" + p));
    }

    /**
     * Drops the processing operator kept for {@code partition} after its task failed, without
     * flushing what it held: the engine's retry opens a new one (the failure may have broken its
     * connection) and processes those records again.
     */
    public void discardProcessingOperator(int partition) {
        ProcessingOperator operator = processingByPartition.remove(partition);
        if (operator != null) {
            operator.abandon();
        }
    }

    /** Closes the processing operators kept by {@link #processingOperator}. */
    public void closeProcessingOperators() {
        processingByPartition.values().forEach(ProcessingOperator::close);
        processingByPartition.clear();
    }

    @Override
    public void close() {
        if (push != null) {
            push.close();
        }
        endpoint.close();
        closeProcessingOperators();
        // A worker that owns its JVM stays its run's worker until the JVM ends: an operator instance
        // that asks for it after this (Spark's last tasks while its context stops) would otherwise
        // start a second worker, which registers unfinished and fails a run that had finished.
        if (!ownsJvm) {
            WORKERS.remove(run, this);
        }
    }
}
