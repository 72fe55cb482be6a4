package org.streambench.flink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.AccessMode;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;
import org.streambench.operators.JobMain;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.ProcessingOperator;

/**
 * Flink adapter: generator source -> keyBy(id) -> processing operator, in a local MiniCluster
 * in this JVM. Chaining is off so the generator runs in its own task, and keying by id sends
 * all records of one key to one operator instance, so read-add-write never races.
 */
public final class FlinkJob {

    static final String BUFFER_TIMEOUT = "bufferTimeoutMillis";
    private static final String LOOPBACK = "127.0.0.1";
    /** A call that has not completed in this long has hung: the job fails instead of waiting forever. */
    private static final long ASYNC_TIMEOUT_MINUTES = 10;

    public static void main(String[] args) {
        JobMain.run(args, "Apache Flink " + EnvironmentInformation.getVersion(), FlinkJob::run);
    }

    static void run(ExperimentSpec spec) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(configuration(spec));
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.disableOperatorChaining();
        env.setBufferTimeout(Long.parseLong(spec.engineSetting(BUFFER_TIMEOUT, "100")));
        KeyedStream<TimedRecord, String> keyed = env.fromSource(
                        new GeneratorSource(spec),
                        WatermarkStrategy.noWatermarks(),
                        "generator",
                        TimedRecordType.INSTANCE)
                .setParallelism(spec.generatorParallelism())
                .keyBy(TimedRecord::id);
        SingleOutputStreamOperator<Void> processed = spec.access().kind() == AccessMode.Kind.ASYNC
                // Flink's own idiom for calls in flight: at most K per subtask, completed in any order
                ? AsyncDataStream.unorderedWait(
                                keyed,
                                new AsyncProcessing(spec),
                                ASYNC_TIMEOUT_MINUTES,
                                TimeUnit.MINUTES,
                                spec.access().size())
                        .returns(Types.VOID)
                : keyed.process(new Processing(spec)).returns(Types.VOID);
        processed
                .name("processing")
                .setParallelism(spec.parallelism())
                .sinkTo(new DiscardingSink<>())
                .setParallelism(spec.parallelism());
        env.execute("streambench " + spec.database() + " " + spec.pattern().cliName() + " " + spec.blobBytes() + "B");
    }

    /**
     * The local cluster's own listeners (blob server, RPC, shuffle) bind loopback, not every
     * interface; recovery as the spec's guarantee asks ({@link FlinkEngine#guaranteeSettings}).
     */
    static Configuration configuration(ExperimentSpec spec) throws IOException {
        Configuration config = new Configuration();
        for (String option : new String[] {
            "jobmanager.bind-host",
            "jobmanager.rpc.address",
            "taskmanager.bind-host",
            "taskmanager.host",
            "rest.bind-address",
            "rest.address"
        }) {
            config.setString(option, LOOPBACK);
        }
        // records travel with Flink's own serializers, never the slower Kryo fallback
        config.set(PipelineOptions.GENERIC_TYPES, false);
        new FlinkEngine().guaranteeSettings(spec).forEach(config::setString);
        if (spec.guarantee().recovers()) {
            // in the job's temporary folder, which the runner deletes however the run ends
            config.setString(
                    "state.checkpoints.dir",
                    Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "flink-checkpoints-")
                            .toUri()
                            .toString());
        }
        // the local cluster's parts share this JVM: on a starved CPU they answer late, not never
        config.setString("heartbeat.timeout", "300000");
        config.setString("pekko.ask.timeout", "60 s");
        return config;
    }

    /**
     * The processing operator in sync or batch mode: one call per record, or records buffered across
     * keys and sent as a batch when it is full or its oldest record has lingered (a processing-time
     * timer), and what is left when the input ends.
     */
    static final class Processing extends KeyedProcessFunction<String, TimedRecord, Void>
            implements CheckpointedFunction, CheckpointListener {
        private static final long serialVersionUID = 1L;

        private final ExperimentSpec spec;
        private transient ProcessingOperator operator;
        /** exactly-once: this instance's writes of checkpoints not known to be complete, as Flink operator state. */
        private transient ListState<byte[]> uncommitted;

        private transient byte[] restoredEpochs;
        private transient long restoredCheckpoint;

        Processing(ExperimentSpec spec) {
            this.spec = spec;
        }

        @Override
        public void open(OpenContext context) {
            TaskInfo task = getRuntimeContext().getTaskInfo();
            operator = ProcessingOperator.open(spec, "flink-" + task.getIndexOfThisSubtask());
            countRestart(task, spec);
            if (restoredEpochs != null) {
                operator.restoreEpochs(restoredCheckpoint, restoredEpochs);
                restoredEpochs = null;
            }
        }

        @Override
        public void processElement(TimedRecord record, Context context, Collector<Void> out) {
            operator.accept(record);
            if (spec.access().kind() == AccessMode.Kind.BATCH) {
                TimerService timers = context.timerService();
                timers.registerProcessingTimeTimer(
                        timers.currentProcessingTime() + spec.access().lingerMillis());
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext context, Collector<Void> out) {
            operator.flushIfLingered();
        }

        /**
         * A checkpoint completes only once the records before its barrier are in the database: the
         * pending batch is sent. With exactly-once they are sent to the checkpoint instead, and
         * committed to the database when it completes.
         */
        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            operator.flush();
            if (uncommitted != null) {
                operator.sealEpoch(context.getCheckpointId());
                uncommitted.update(List.of(operator.uncommittedState()));
            }
            operator.snapshotTaken();
        }

        /** Runs before {@link #open}: what a restored checkpoint held is committed once the operator is open. */
        @Override
        public void initializeState(FunctionInitializationContext context) throws Exception {
            if (spec.guarantee() != Guarantee.EXACTLY_ONCE) {
                return;
            }
            uncommitted = context.getOperatorStateStore()
                    .getListState(new ListStateDescriptor<>(
                            "uncommitted writes", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
            if (context.isRestored()) {
                for (byte[] epochs : uncommitted.get()) {
                    restoredEpochs = epochs;
                }
                restoredCheckpoint = context.getRestoredCheckpointId().orElseThrow();
            }
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            if (uncommitted != null) {
                operator.commitUpTo(checkpointId);
            }
        }

        @Override
        public void close() {
            if (operator != null) {
                operator.close();
            }
        }
    }

    /** Counts a processing instance that Flink restarted from a checkpoint (its attempt after the first). */
    private static void countRestart(TaskInfo task, ExperimentSpec spec) {
        if (task.getAttemptNumber() > 0) {
            JobRuntime.of(spec).restartedInstance();
        }
    }

    /** The processing operator in async mode, as Flink's async function: a record's calls complete its result future. */
    static final class AsyncProcessing extends RichAsyncFunction<TimedRecord, Void> implements CheckpointedFunction {
        private static final long serialVersionUID = 1L;

        private final ExperimentSpec spec;
        private transient ProcessingOperator operator;

        AsyncProcessing(ExperimentSpec spec) {
            this.spec = spec;
        }

        @Override
        public void open(OpenContext context) {
            operator = ProcessingOperator.open(spec);
            countRestart(getRuntimeContext().getTaskInfo(), spec);
        }

        @Override
        public void asyncInvoke(TimedRecord record, ResultFuture<Void> result) {
            CompletableFuture<Void> unused = operator.processAsync(record).whenComplete((done, failure) -> {
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else {
                    result.complete(List.of());
                }
            });
        }

        /** Flink's async operator holds the calls in flight in its checkpoint; nothing of ours to add. */
        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            operator.snapshotTaken();
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void close() {
            if (operator != null) {
                operator.close();
            }
        }
    }
}
