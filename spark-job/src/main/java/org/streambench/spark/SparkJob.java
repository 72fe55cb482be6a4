package org.streambench.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.SparkConf;
import org.apache.spark.TaskContext;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.streaming.Durations;
import org.apache.spark.streaming.api.java.JavaDStream;
import org.apache.spark.streaming.api.java.JavaStreamingContext;
import org.apache.spark.streaming.receiver.Receiver;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.Guarantee;
import org.streambench.operators.JobMain;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.ProcessingOperator;
import scala.Tuple2;

/**
 * Spark Streaming (DStreams) adapter, local[N] in this JVM (or a cluster's executors): one
 * receiver per generator instance, so generation runs in its own tasks; each micro-batch is
 * partitioned by record id, so one key is always processed by one partition, batch after batch;
 * each partition keeps its database session across micro-batches. Within a batch, a key's records
 * come in the order the shuffle fetches the batch's blocks: emission order in one executor, not
 * always across executors (floating-point sums of an update run may then differ in their last bits).
 */
public final class SparkJob {

    /** Each receiver's rate in its first batches when unthrottled, until the rate estimator has learned. */
    private static final long UNTHROTTLED_INITIAL_RATE = 1000;
    /**
     * An unthrottled job emits this many records and waits until they are processed, twice, before
     * it runs free: Spark's rate estimator publishes its first rate after its second completed batch
     * with records, and until then the receivers take the initial rate whatever the database manages.
     */
    private static final long UNTHROTTLED_HELD_RECORDS = 500;

    private static final int UNTHROTTLED_HELD_ROUNDS = 2;

    public static void main(String[] args) {
        JobMain.run(args, "Apache Spark " + org.apache.spark.package$.MODULE$.SPARK_VERSION(), SparkJob::run);
    }

    // the study measures Spark Streaming (DStreams), which Spark deprecates in favour of Structured Streaming
    @SuppressWarnings("deprecation")
    static void run(ExperimentSpec spec) throws Exception {
        int threads = spec.generatorParallelism() + spec.parallelism();
        SparkConf conf = new SparkConf()
                .setAppName(
                        "streambench " + spec.database() + " " + spec.pattern().cliName())
                .set("spark.ui.enabled", "false")
                .set("spark.streaming.stopGracefullyOnShutdown", "false")
                // unthrottled means "as fast as processing keeps up": without backpressure the receivers
                // would queue records without bound, and the graceful stop would have to process them all
                .set("spark.streaming.backpressure.enabled", "true")
                // the rate estimator learns from completed batches; until then, each receiver may take
                // its share of a throttled rate (a lower cap makes the generators fall behind and
                // catch up later, which distorts the rate), or starts modestly when unthrottled
                .set("spark.streaming.backpressure.initialRate", Long.toString(initialRatePerReceiver(spec)))
                // the estimator's floor (100 records/s by default) would queue without bound against a
                // slower database (27-87 records/s: Cassandra x3 and HBase on the single-node swarm)
                .set("spark.streaming.backpressure.pid.minRate", "1");
        new SparkEngine().guaranteeSettings(spec).forEach(conf::set);
        if (!conf.contains("spark.master")) {
            // not submitted to a cluster (spark-submit sets the master): everything in this JVM, on loopback;
            // local[N, F] lets a failed task be tried F times in all, as spark.task.maxFailures does on a cluster
            conf.setMaster("local[" + threads + "," + conf.get("spark.task.maxFailures") + "]")
                    .set("spark.driver.host", "127.0.0.1")
                    .set("spark.driver.bindAddress", "127.0.0.1");
        }
        long batchMillis = Long.parseLong(spec.engineSetting("batchIntervalMillis", "1000"));
        JavaStreamingContext context = new JavaStreamingContext(conf, Durations.milliseconds(batchMillis));
        try {
            List<JavaDStream<TimedRecord>> receivers = new ArrayList<>();
            for (int instance = 0; instance < spec.generatorParallelism(); instance++) {
                receivers.add(context.receiverStream(new GeneratorReceiver(spec, instance)));
            }
            JavaDStream<TimedRecord> records = receivers.get(0);
            for (JavaDStream<TimedRecord> receiver : receivers.subList(1, receivers.size())) {
                records = records.union(receiver);
            }
            HashPartitioner byId = new HashPartitioner(spec.parallelism());
            records.mapToPair(record -> new Tuple2<>(record.id(), record))
                    .transformToPair(batch -> batch.partitionBy(byId))
                    .foreachRDD((batch, time) ->
                            batch.foreachPartition(partition -> process(spec, time.milliseconds(), partition)));
            context.start();
            JobRuntime runtime = JobRuntime.of(spec);
            runtime.awaitGeneratorsDone();
            // graceful: receivers stop, and every block they stored is processed before the context ends
            context.stop(true, true);
            if (!runtime.drained()) {
                throw new IllegalStateException("Spark stopped before every emitted record was processed");
            }
        } finally {
            JobRuntime.of(spec).closeProcessingOperators();
        }
    }

    static long initialRatePerReceiver(ExperimentSpec spec) {
        if (spec.rate() <= 0) {
            return UNTHROTTLED_INITIAL_RATE;
        }
        return (long) Math.ceil(spec.rate() / spec.generatorParallelism());
    }

    /**
     * Each partition keeps its processing operator (and database session) in its executor's worker
     * across batches. In batch mode the partition's records go in chunks of N, in async mode with at
     * most K calls in flight; either way every call has completed before the partition's task returns.
     * With exactly-once the partition's writes of the micro-batch are committed with its batch time
     * when the partition is done (Spark's foreachRDD idiom), and a retried task drops what the failed
     * attempt wrote, which never reached the database; a batch committed before is skipped.
     */
    private static void process(ExperimentSpec spec, long batchTime, Iterator<Tuple2<String, TimedRecord>> partition) {
        TaskContext task = TaskContext.get();
        JobRuntime runtime = JobRuntime.of(spec);
        if (task.attemptNumber() > 0) {
            runtime.restartedInstance();
        }
        ProcessingOperator operator = runtime.processingOperator(task.partitionId());
        try {
            operator.dropUncommittedWrites();
            while (partition.hasNext()) {
                operator.accept(partition.next()._2());
            }
            operator.flush();
            if (spec.guarantee() == Guarantee.EXACTLY_ONCE) {
                operator.sealEpoch(batchTime);
                operator.snapshotTaken();
                operator.commitUpTo(batchTime);
            } else {
                operator.snapshotTaken();
            }
        } catch (RuntimeException e) {
            if (spec.guarantee().recovers()) {
                runtime.discardProcessingOperator(task.partitionId());
            }
            // Spark Streaming goes on with the next micro-batch when one fails for good: the run must end instead
            int attempts = SparkEngine.taskAttempts(spec);
            if (task.attemptNumber() + 1 >= attempts) {
                runtime.fail("the task of partition " + task.partitionId() + " failed"
                        + (attempts > 1 ? " " + attempts + " times" : "") + ": " + e.getMessage());
            }
            throw e;
        }
    }

    /** Generator instance {@code instance} as a Spark receiver. */
    static final class GeneratorReceiver extends Receiver<TimedRecord> {
        private static final long serialVersionUID = 1L;

        private final ExperimentSpec spec;
        private final int instance;

        GeneratorReceiver(ExperimentSpec spec, int instance) {
            super(StorageLevel.MEMORY_AND_DISK()); // spill received blocks rather than drop them
            this.spec = spec;
            this.instance = instance;
        }

        @Override
        public void onStart() {
            Thread thread = new Thread(
                    () -> {
                        GeneratorInstance generator = GeneratorInstance.heldUntilProcessed(
                                spec, instance, UNTHROTTLED_HELD_RECORDS, UNTHROTTLED_HELD_ROUNDS);
                        TimedRecord record;
                        while (!isStopped() && (record = generator.next()) != null) {
                            store(record);
                        }
                    },
                    "generator-" + instance);
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        public void onStop() {
            // the generator thread ends when the job stops or the bounded run is complete
        }
    }
}
