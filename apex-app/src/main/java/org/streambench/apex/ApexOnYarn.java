package org.streambench.apex;

import com.datatorrent.api.Context;
import com.datatorrent.stram.StramClient;
import com.datatorrent.stram.client.StramClientUtils;
import com.datatorrent.stram.plan.logical.LogicalPlan;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Halt;
import org.streambench.operators.JobMain;
import org.streambench.operators.JobRuntime;

/**
 * Apex on YARN. Apex builds its DAG where it is launched, so this JVM, on the submitting side,
 * is the job's main and first worker, as a local Apex job's JVM is; Apex's client submits the DAG,
 * STRAM (the ApplicationMaster) deploys the operators into containers, each JVM a worker of the
 * job, and this JVM waits until the job is done. Usage: {@code <spec.properties>}, with the system
 * property {@value #SETTINGS_PROPERTY} naming the runner's settings file: {@code name}, {@code
 * tag}, {@code libraryJars} (comma-separated), {@code dfsRoot}, {@code containerJvmOptions},
 * {@code containerMemoryMb}, {@code masterMemoryMb}, {@code password} (optional). The Hadoop
 * client reads the cluster's addresses from its classpath.
 */
public final class ApexOnYarn {

    static final String SETTINGS_PROPERTY = "streambench.apex.yarnSettings";

    /** A safety net only, as for a local job. */
    private static final long DRAIN_TIMEOUT_MILLIS = 600_000;

    private ApexOnYarn() {}

    public static void main(String[] args) {
        JobMain.run(
                args,
                "Apache Apex " + com.datatorrent.stram.util.VersionInfo.APEX_VERSION.getVersion(),
                ApexOnYarn::run);
    }

    static void run(ExperimentSpec spec) throws Exception {
        Properties settings = new Properties();
        try (Reader in =
                Files.newBufferedReader(Path.of(System.getProperty(SETTINGS_PROPERTY)), StandardCharsets.UTF_8)) {
            settings.load(in);
        }
        Configuration conf = new Configuration();
        // the application's folder (jars, plan, checkpoints) goes where the runner deletes it
        conf.set(StramClientUtils.DT_DFS_ROOT_DIR, settings.getProperty("dfsRoot"));
        LogicalPlan dag = new LogicalPlan();
        new ApexJob.Application(spec, settings.getProperty("password")).populateDAG(dag, conf);
        dag.setAttribute(Context.DAGContext.APPLICATION_NAME, settings.getProperty("name"));
        dag.setAttribute(Context.DAGContext.LIBRARY_JARS, settings.getProperty("libraryJars"));
        dag.setAttribute(Context.DAGContext.CONTAINER_JVM_OPTIONS, settings.getProperty("containerJvmOptions"));
        dag.setAttribute(Context.DAGContext.MASTER_MEMORY_MB, Integer.parseInt(settings.getProperty("masterMemoryMb")));
        int containerMemory = Integer.parseInt(settings.getProperty("containerMemoryMb"));
        for (LogicalPlan.OperatorMeta operator : dag.getAllOperators()) {
            dag.setOperatorAttribute(operator.getOperator(), Context.OperatorContext.MEMORY_MB, containerMemory);
        }
        StramClient client = new StramClient(conf, dag);
        client.addTag(settings.getProperty("tag"));
        client.start();
        boolean submitted = false;
        boolean drained = false;
        try {
            client.startApplication();
            submitted = true;
            // this JVM ends by halting (when the job is done, failed, or its runner is gone): STRAM would run on
            Halt.first(() -> kill(client));
            System.out.println("submitted the YARN application "
                    + client.getApplicationReport().getApplicationId());
            JobRuntime runtime = JobRuntime.of(spec);
            runtime.awaitGeneratorsDone();
            if (!runtime.awaitDrained(DRAIN_TIMEOUT_MILLIS)) {
                throw new IllegalStateException(
                        "Apex did not process every emitted record within " + DRAIN_TIMEOUT_MILLIS + " ms");
            }
            drained = true;
        } finally {
            // a drained job is killed at the halt, once every worker pushed its final status (JobMain):
            // killed here, a container's worker could die before it pushed its own, failing the run
            if (!drained) {
                if (submitted) {
                    kill(client);
                }
                client.stop();
            }
        }
    }

    private static void kill(StramClient client) {
        try {
            client.killApplication();
        } catch (Exception e) {
            System.err.println("streambench: could not kill the Apex application: " + e);
        }
    }
}
