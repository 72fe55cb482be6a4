package org.streambench.apex;

import com.datatorrent.api.Context;
import com.datatorrent.api.DAG;
import com.datatorrent.api.DefaultInputPort;
import com.datatorrent.api.DefaultOutputPort;
import com.datatorrent.api.DefaultPartition;
import com.datatorrent.api.InputOperator;
import com.datatorrent.api.LocalMode;
import com.datatorrent.api.Partitioner;
import com.datatorrent.api.StreamCodec;
import com.datatorrent.api.StreamingApplication;
import com.datatorrent.api.annotation.Stateless;
import com.datatorrent.common.partitioner.StatelessPartitioner;
import com.datatorrent.common.util.BaseOperator;
import com.datatorrent.netlet.util.Slice;
import com.datatorrent.stram.StramLocalCluster;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.Guarantee;
import org.streambench.operators.JobMain;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Polling;
import org.streambench.operators.ProcessingOperator;

/**
 * Apache Apex adapter, local mode in this JVM: a DAG of a generator input operator (one
 * partition per generator instance) and the processing operator (partitioned by record id).
 * The stream between them is not thread-local by default, so records cross Apex's buffer server
 * as in the study ({@code streamLocality} engine setting: none, container_local, thread_local).
 */
public final class ApexJob {

    /** A safety net only: the runner's own stop deadline (--stop-timeout) normally ends a job that cannot drain. */
    private static final long DRAIN_TIMEOUT_MILLIS = 600_000;

    public static void main(String[] args) {
        JobMain.run(
                args, "Apache Apex " + com.datatorrent.stram.util.VersionInfo.APEX_VERSION.getVersion(), ApexJob::run);
    }

    // Apex 3.7 deprecates LocalMode for its Launcher API; LocalMode is the launcher this adapter runs and is tested
    // with
    @SuppressWarnings({"deprecation", "rawtypes"})
    static void run(ExperimentSpec spec) throws Exception {
        LocalMode local = LocalMode.newInstance();
        DAG dag = local.prepareDAG(new Application(spec), new Configuration(false));
        // Apex's default, ./target/com.datatorrent.stram.StramLocalCluster, is in the folder the job was started
        // from, and StramLocalCluster empties it at start: two jobs started from one folder deleted and read each
        // other's serialized operators. A folder of its own inside the job's temporary folder instead.
        dag.setAttribute(
                Context.DAGContext.APPLICATION_PATH,
                Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "apex-application-")
                        .toUri()
                        .toString());
        LocalMode.Controller controller = local.getController();
        if (controller instanceof StramLocalCluster cluster) {
            // every container of local mode is a thread of this JVM: a late heartbeat means a starved JVM (a busy
            // machine), not a dead container, and redeploying it would process its records a second time
            cluster.setHeartbeatMonitoringEnabled(heartbeatTimeoutMillis(spec) > 0);
        }
        controller.runAsync();
        JobRuntime runtime = JobRuntime.of(spec);
        WindowProgress progress = WindowProgress.of(spec);
        BooleanSupplier shutDown = () -> controller instanceof StramLocalCluster cluster && cluster.isFinished();
        try {
            while (!runtime.generatorsDone() && !shutDown.getAsBoolean()) {
                Thread.sleep(20);
            }
            boolean processed = Polling.until(
                    () -> shutDown.getAsBoolean()
                            || (spec.guarantee() == Guarantee.AT_LEAST_ONCE
                                    ? progress.processedThroughGenerators()
                                    : runtime.drained()),
                    DRAIN_TIMEOUT_MILLIS);
            if (shutDown.getAsBoolean()) {
                throw new IllegalStateException("apex shut the application down after the processing operator"
                        + " failed more than " + ApexEngine.RECOVERY_ATTEMPTS + " times (RECOVERY_ATTEMPTS); the last"
                        + " failure: " + runtime.lastInstanceFailure());
            }
            if (!processed) {
                throw new IllegalStateException(
                        "Apex did not process every emitted record within " + DRAIN_TIMEOUT_MILLIS + " ms");
            }
        } finally {
            controller.shutdown();
        }
    }

    static final class Application implements StreamingApplication {
        private final ExperimentSpec spec;
        /** The database password for operators in containers whose environment the job cannot set (YARN); or null. */
        private final String password;

        Application(ExperimentSpec spec) {
            this(spec, null);
        }

        Application(ExperimentSpec spec, String password) {
            this.spec = spec;
            this.password = password;
        }

        @Override
        public void populateDAG(DAG dag, Configuration conf) {
            Generator generator = dag.addOperator("generator", new Generator());
            generator.spec = spec.toText();
            generator.password = password;
            generator.instances = spec.generatorParallelism();
            generator.maxInFlight = Long.parseLong(spec.engineSetting("maxInFlight", "10000"));
            Processing processing = dag.addOperator("processing", new Processing());
            processing.spec = spec.toText();
            processing.password = password;
            dag.setOperatorAttribute(
                    processing,
                    Context.OperatorContext.PARTITIONER,
                    new StatelessPartitioner<Processing>(spec.parallelism()));
            if (heartbeatTimeoutMillis(spec) > 0) {
                dag.setAttribute(Context.DAGContext.HEARTBEAT_TIMEOUT_MILLIS, heartbeatTimeoutMillis(spec));
            }
            if (spec.guarantee().recovers()) {
                dag.setAttribute(Context.DAGContext.STREAMING_WINDOW_SIZE_MILLIS, ApexEngine.WINDOW_MILLIS);
                dag.setAttribute(Context.DAGContext.CHECKPOINT_WINDOW_COUNT, ApexEngine.checkpointWindows(spec));
                dag.setOperatorAttribute(
                        processing, Context.OperatorContext.RECOVERY_ATTEMPTS, ApexEngine.RECOVERY_ATTEMPTS);
            }
            DAG.StreamMeta stream = dag.addStream("records", generator.output, processing.input);
            String locality = spec.engineSetting("streamLocality", "none");
            if (!locality.equals("none")) {
                stream.setLocality(DAG.Locality.valueOf(locality.toUpperCase(java.util.Locale.ROOT)));
            }
        }
    }

    /**
     * How far the job's windows got, for at-least-once's end: a replay processes records again, so
     * the count of processed records reaches what was emitted before the last ones are through. A
     * window holds the same records in every operator, so once every processing partition ended a
     * window at or past the one in which every generator had ended, each emitted record was
     * processed and flushed at least once. In this JVM: a guarantee runs in local mode only, where
     * every container is a thread of the job's JVM.
     */
    static final class WindowProgress {
        private static final Map<Integer, WindowProgress> OF_RUN = new ConcurrentHashMap<>();

        private final int generators;
        private final int partitions;
        private final Map<Integer, Long> generatorEndedIn = new ConcurrentHashMap<>();
        private final Map<Integer, Long> processedThrough = new ConcurrentHashMap<>();

        private WindowProgress(ExperimentSpec spec) {
            generators = spec.generatorParallelism();
            partitions = spec.parallelism();
        }

        static WindowProgress of(ExperimentSpec spec) {
            return OF_RUN.computeIfAbsent(spec.runToken(), token -> new WindowProgress(spec));
        }

        /** Generator instance {@code instance} ended in window {@code windowId}: it emits no record after it. */
        void generatorEnded(int instance, long windowId) {
            generatorEndedIn.putIfAbsent(instance, windowId);
        }

        /** Processing partition {@code operatorId} ended window {@code windowId}, its writes flushed. */
        void processed(int operatorId, long windowId) {
            processedThrough.merge(operatorId, windowId, Math::max);
        }

        boolean processedThroughGenerators() {
            if (generatorEndedIn.size() < generators || processedThrough.size() < partitions) {
                return false;
            }
            long lastWindow = generatorEndedIn.values().stream()
                    .mapToLong(Long::longValue)
                    .max()
                    .orElseThrow();
            return processedThrough.values().stream().allMatch(window -> window >= lastWindow);
        }
    }

    /** What the job's operators share: the run's spec and password, and the window they are in. */
    abstract static class RunOperator extends BaseOperator {
        /** The spec as text: Apex copies operators with Kryo, and a string needs nothing of Kryo from the spec record and its maps. */
        String spec;

        String password;
        transient long windowId;
        transient WindowProgress progress;

        /** The run's spec, with the password; the window progress of the run from now on. */
        ExperimentSpec experiment() {
            ExperimentSpec experiment = specOf(spec, password);
            progress = WindowProgress.of(experiment);
            return experiment;
        }

        @Override
        public void beginWindow(long windowId) {
            this.windowId = windowId;
        }
    }

    /** The generator; its partitioner makes partition i generator instance i. */
    public static final class Generator extends RunOperator implements InputOperator, Partitioner<Generator> {
        private static final int PER_CALL = 64;

        public final transient DefaultOutputPort<TimedRecord> output = new DefaultOutputPort<>();
        int instances = 1;
        int instance;
        long maxInFlight;
        private transient GeneratorInstance generator;
        private transient boolean ended;

        /** A generator deployed again would cut its windows anew: it fails the run, with or without a guarantee. */
        @Override
        public void setup(Context.OperatorContext context) {
            ExperimentSpec experiment = experiment();
            String what = "generator " + instance;
            if (redeployed(experiment, context, what)) {
                failRedeployment(experiment, context, what);
            }
            generator = GeneratorInstance.of(experiment, instance, maxInFlight);
        }

        @Override
        public void endWindow() {
            if (ended) {
                progress.generatorEnded(instance, windowId);
            }
        }

        @Override
        public void emitTuples() {
            for (int i = 0; i < PER_CALL; i++) {
                if (generator.heldBack()) {
                    return; // Apex idles the operator briefly, ends its window if one is due, and asks again
                }
                TimedRecord record = generator.next();
                if (record == null) {
                    ended = true;
                    return;
                }
                output.emit(record);
            }
        }

        @Override
        public Collection<Partition<Generator>> definePartitions(
                Collection<Partition<Generator>> partitions, PartitioningContext context) {
            List<Partition<Generator>> defined = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                Generator partition = new Generator();
                partition.spec = spec;
                partition.password = password;
                partition.instances = instances;
                partition.instance = i;
                partition.maxInFlight = maxInFlight;
                defined.add(new DefaultPartition<>(partition));
            }
            return defined;
        }

        @Override
        public void partitioned(Map<Integer, Partition<Generator>> partitions) {}
    }

    /** The shared processing operator; records reach it partitioned by id. */
    public static final class Processing extends RunOperator {
        private transient ProcessingOperator operator;
        private transient Guarantee guarantee;
        private transient int operatorId;

        public final transient DefaultInputPort<TimedRecord> input = new DefaultInputPort<>() {
            @Override
            public void process(TimedRecord record) {
                operator.accept(record);
            }

            @Override
            public StreamCodec<TimedRecord> getStreamCodec() {
                return new RecordCodec();
            }
        };

        /** Deployed again from its checkpoint: with a guarantee, Apex's recovery at work (counted); without one, the run fails. */
        @Override
        public void setup(Context.OperatorContext context) {
            ExperimentSpec experiment = experiment();
            String what = "processing operator " + context.getId();
            guarantee = experiment.guarantee();
            if (redeployed(experiment, context, what)) {
                if (!guarantee.recovers()) {
                    failRedeployment(experiment, context, what);
                }
                JobRuntime.of(experiment).restartedInstance();
            }
            operator = ProcessingOperator.open(experiment, "apex-" + context.getId());
            operatorId = context.getId();
        }

        /**
         * A batch is sent when it is full and at the end of every window (Apex's own linger, 500 ms);
         * calls in flight are awaited there too. With exactly-once the window's writes are committed
         * there with its id, as Malhar's transactionable output operators do; a window the buffer
         * server replays after a redeployment is skipped if its commit got in before. With
         * at-least-once the window counts as processed for the job's end ({@link WindowProgress}).
         */
        @Override
        public void endWindow() {
            operator.flush();
            if (guarantee == Guarantee.EXACTLY_ONCE) {
                operator.sealEpoch(windowId);
                operator.snapshotTaken();
                operator.commitUpTo(windowId);
            } else {
                operator.snapshotTaken();
            }
            progress.processed(operatorId, windowId);
        }

        @Override
        public void teardown() {
            if (operator != null) {
                operator.close();
            }
        }
    }

    /**
     * Whether Apex deployed the operator again: it recovers a failed container, or one whose
     * heartbeats came late, by deploying its operators again from their last checkpoint, and the
     * records since then are processed again (inserted twice, added twice).
     */
    private static boolean redeployed(ExperimentSpec spec, Context.OperatorContext context, String what) {
        Long activation = context.getValue(Context.OperatorContext.ACTIVATION_WINDOW_ID);
        boolean fromCheckpoint = activation != null && activation != Stateless.WINDOW_ID;
        return !JobRuntime.of(spec).firstSetup(what) || fromCheckpoint;
    }

    /**
     * Without a guarantee, a redeployment leaves a run that is not comparable, and its database
     * errors (a duplicate key) would blame the database: it ends the run at once with the real cause.
     */
    private static void failRedeployment(ExperimentSpec spec, Context.OperatorContext context, String what) {
        Long activation = context.getValue(Context.OperatorContext.ACTIVATION_WINDOW_ID);
        boolean recovered = activation != null && activation != Stateless.WINDOW_ID;
        String reason =
                "apex redeployed the " + what + (recovered ? " from its checkpoint of window " + activation : "")
                        + " (a container failed or its heartbeats came late, e.g. on a starved CPU): records since its last"
                        + " checkpoint would be processed twice, so the run is not comparable";
        JobRuntime.of(spec).fail(reason);
        throw new IllegalStateException(reason);
    }

    /** Apex's heartbeat timeout ({@code heartbeatTimeoutMillis}); 0: no heartbeat monitoring in local mode, Apex's default on YARN. */
    static int heartbeatTimeoutMillis(ExperimentSpec spec) {
        return Integer.parseInt(spec.engineSetting("heartbeatTimeoutMillis", "0"));
    }

    private static ExperimentSpec specOf(String text, String password) {
        ExperimentSpec spec = ExperimentSpec.fromText(text);
        if (password == null) {
            return spec;
        }
        Map<String, String> settings = new HashMap<>(spec.databaseSettings());
        settings.put("password", password);
        return spec.withDatabaseSettings(settings);
    }

    /** Serializes records for the buffer server and routes them by id, so one key meets one partition. */
    public static final class RecordCodec implements StreamCodec<TimedRecord>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object fromByteArray(Slice fragment) {
            try (DataInputStream in =
                    new DataInputStream(new ByteArrayInputStream(fragment.buffer, fragment.offset, fragment.length))) {
                return TimedRecord.readFrom(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Slice toByteArray(TimedRecord r) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                r.writeTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Slice(bytes.toByteArray());
        }

        @Override
        public int getPartition(TimedRecord record) {
            return record.id().hashCode();
        }
    }
}
