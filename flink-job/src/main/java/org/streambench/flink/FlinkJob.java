package org.streambench.flink;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobMain;
import org.streambench.operators.ProcessingOperator;

/**
 * Flink adapter: generator source -> keyBy(id) -> processing operator, in a local MiniCluster
 * in this JVM. Chaining is off so the generator runs in its own task, and keying by id sends
 * all records of one key to one operator instance, so read-add-write never races.
 */
public final class FlinkJob {

    private static final String LOOPBACK = "127.0.0.1";

    public static void main(String[] args) {
        JobMain.run(args, "Apache Flink " + EnvironmentInformation.getVersion(), FlinkJob::run);
    }

    static void run(ExperimentSpec spec) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(configuration());
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.disableOperatorChaining();
        env.fromSource(
                        new GeneratorSource(spec),
                        WatermarkStrategy.noWatermarks(),
                        "generator",
                        TimedRecordType.INSTANCE)
                .setParallelism(spec.generatorParallelism())
                .keyBy(TimedRecord::id)
                .process(new Processing(spec))
                .returns(Types.VOID)
                .name("processing")
                .setParallelism(spec.parallelism())
                .sinkTo(new DiscardingSink<>())
                .setParallelism(spec.parallelism());
        env.execute("streambench " + spec.database() + " " + spec.pattern().cliName() + " " + spec.blobBytes() + "B");
    }

    /** The local cluster's own listeners (blob server, RPC, shuffle) bind loopback, not every interface. */
    private static Configuration configuration() {
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
        // a failed task fails the job: a restart would process its records a second time
        config.setString("restart-strategy.type", "none");
        // the local cluster's parts share this JVM: on a starved CPU they answer late, not never
        config.setString("heartbeat.timeout", "300000");
        config.setString("pekko.ask.timeout", "60 s");
        return config;
    }

    static final class Processing extends KeyedProcessFunction<String, TimedRecord, Void> {
        private static final long serialVersionUID = 1L;

        private final ExperimentSpec spec;
        private transient ProcessingOperator operator;

        Processing(ExperimentSpec spec) {
            this.spec = spec;
        }

        @Override
        public void open(OpenContext context) {
            operator = ProcessingOperator.open(spec);
        }

        @Override
        public void processElement(TimedRecord record, Context context, Collector<Void> out) {
            operator.process(record);
        }

        @Override
        public void close() {
            if (operator != null) {
                operator.close();
            }
        }
    }
}
