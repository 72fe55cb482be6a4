package org.streambench.flink;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.client.deployment.application.ApplicationConfiguration;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.yarn.YarnClusterClientFactory;
import org.apache.flink.yarn.YarnClusterDescriptor;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;

/**
 * Submits the Flink job to YARN in application mode (the job's main runs in the JobManager's
 * container) and waits until the application has ended, as spark-submit does. Its one argument
 * is a properties file of Flink settings, the job's main class and arguments among them, written
 * by the runner; {@code HADOOP_CONF_DIR} names the cluster. Exit 0 when the application
 * succeeded, 1 when it did not.
 */
public final class YarnLauncher {

    private static final long POLL_MILLIS = 1000;

    private YarnLauncher() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: <flink-settings.properties> (the bench runner launches this)");
            System.exit(2);
        }
        Properties settings = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            settings.load(in);
        }
        Map<String, String> values = new HashMap<>();
        settings.stringPropertyNames().forEach(key -> values.put(key, settings.getProperty(key)));
        Configuration config = Configuration.fromMap(values);
        YarnClusterClientFactory factory = new YarnClusterClientFactory();
        try (YarnClusterDescriptor descriptor = factory.createClusterDescriptor(config)) {
            ApplicationId application;
            try (ClusterClient<ApplicationId> client = descriptor
                    .deployApplicationCluster(
                            factory.getClusterSpecification(config), ApplicationConfiguration.fromConfiguration(config))
                    .getClusterClient()) {
                application = client.getClusterId();
            }
            System.out.println("submitted the YARN application " + application);
            while (true) {
                ApplicationReport report = descriptor.getYarnClient().getApplicationReport(application);
                YarnApplicationState state = report.getYarnApplicationState();
                if (state == YarnApplicationState.FINISHED
                        || state == YarnApplicationState.FAILED
                        || state == YarnApplicationState.KILLED) {
                    System.out.println("the YARN application " + application + " ended " + state + " ("
                            + report.getFinalApplicationStatus() + "): " + report.getDiagnostics());
                    System.exit(report.getFinalApplicationStatus() == FinalApplicationStatus.SUCCEEDED ? 0 : 1);
                }
                Thread.sleep(POLL_MILLIS);
            }
        }
    }
}
