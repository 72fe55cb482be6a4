package org.streambench.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.generator.Pattern;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.engine.RecordingYarnJob;

/** Spark's YARN submission, without a cluster: cluster mode, one attempt, jars used where they are, cores for every receiver. */
class SparkEngineTest {

    @Test
    void submitsInClusterModeWithLocalJarsAndACoreForEveryReceiverAndPartition(@TempDir Path tmp) throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("spark", "cassandra", Pattern.MIXED)
                .parallelism(2)
                .generatorParallelism(3)
                .databaseSettings(Map.of("url", "127.0.0.1:9042", "password", "s3cret"))
                .build();
        RecordingYarnJob job = new RecordingYarnJob(spec, tmp)
                .withJars(SparkEngine.MODULE, "/m2/spark-core_2.12-3.5.5.jar", "/m2/db-cassandra-0.1.0.jar");

        List<String> command = new SparkEngine().yarnSubmitCommand(job);

        String joined = String.join(" ", command);
        assertTrue(joined.contains("org.apache.spark.deploy.SparkSubmit --master yarn --deploy-mode cluster"), joined);
        assertTrue(joined.contains("--class org.streambench.spark.SparkJob"), joined);
        assertEquals("spec.properties", command.get(command.size() - 1), "the job's main reads the shipped spec");
        assertFalse(joined.contains("s3cret"), "no password on the submitter's command line");
        Properties settings = job.writtenSettings();
        assertEquals(
                "local:/m2/spark-core_2.12-3.5.5.jar,local:/m2/db-cassandra-0.1.0.jar,local:"
                        + job.moduleJar(SparkEngine.MODULE),
                settings.getProperty("spark.yarn.jars"));
        assertEquals("5", settings.getProperty("spark.executor.cores"), "3 receivers and 2 partitions");
        assertEquals("1", settings.getProperty("spark.yarn.maxAppAttempts"));
        assertEquals("false", settings.getProperty("spark.yarn.populateHadoopClasspath"));
        assertEquals(
                job.settingsFile().getParent().toUri().toString(),
                settings.getProperty("spark.yarn.stagingDir"),
                "staged in the run's own folder on a cluster with a local file system");
        assertEquals("s3cret", settings.getProperty("spark.yarn.appMasterEnv.STREAMBENCH_DB_PASSWORD"));
        assertEquals("s3cret", settings.getProperty("spark.executorEnv.STREAMBENCH_DB_PASSWORD"));
        assertTrue(settings.getProperty("spark.driver.extraJavaOptions").contains("-Dstreambench.awaitStart=true"));
        assertTrue(
                settings.getProperty("spark.executor.extraJavaOptions").contains(RecordingYarnJob.CONNECTOR_FLAG),
                "the connectors' JVM flags reach the executors");
        assertEquals("2", job.requestedResources().get("spark.executor.instances"));
    }

    @Test
    void onAClusterWithHdfsSparkUploadsTheJarsToTheRunsFolderThere(@TempDir Path tmp) throws Exception {
        ExperimentSpec spec =
                ExperimentSpec.builder("spark", "postgresql", Pattern.UPDATE).build();
        RecordingYarnJob job = new RecordingYarnJob(spec, tmp)
                .withJars(
                        SparkEngine.MODULE,
                        "/m2/spark-core_2.12-3.5.5.jar",
                        "/m2/hadoop-client-api-3.4.2.jar",
                        "/m2/hbase-shaded-client-2.6.4.jar")
                .onDistributedFileSystem();

        new SparkEngine().yarnSubmitCommand(job);

        Properties settings = job.writtenSettings();
        assertEquals(
                "file:/m2/spark-core_2.12-3.5.5.jar,file:/m2/hadoop-client-api-3.4.2.jar,"
                        + "file:/m2/hbase-shaded-client-2.6.4.jar,file:" + job.moduleJar(SparkEngine.MODULE),
                settings.getProperty("spark.yarn.jars"),
                "the cluster's containers cannot read this machine's files");
        assertEquals(
                job.settingsFile().getParent().toString(),
                settings.getProperty("spark.yarn.stagingDir"),
                "staged in the run's folder's path on the cluster's HDFS, which the runner deletes");
        for (String jvm : List.of("driver", "executor")) {
            assertEquals(
                    "__spark_libs__/hadoop-client-api-3.4.2.jar",
                    settings.getProperty("spark." + jvm + ".extraClassPath"),
                    "Hadoop 3 before the HBase client's Hadoop 2 classes in the " + jvm);
        }
    }

    @Test
    void aBatchIntervalMustBeAPositiveWholeNumber() {
        SparkEngine spark = new SparkEngine();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> spark.checkSettings(Map.of("batchIntervalMillis", "0")));
        assertEquals("--engine-setting batchIntervalMillis '0' must be a positive whole number", e.getMessage());
        spark.checkSettings(spark.defaultSettings());
    }
}
