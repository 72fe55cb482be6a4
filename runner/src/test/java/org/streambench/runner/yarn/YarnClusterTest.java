package org.streambench.runner.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.servers.HadoopFiles;

/** What the runner reads of a cluster's configuration and asks of its HDFS, against a stand-in NameNode. */
class YarnClusterTest {

    @Test
    void aRunsStagedFilesAreDeletedFromTheClustersHdfsThroughWebHdfs(@TempDir Path conf) throws Exception {
        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer namenode = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        namenode.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
            byte[] body = "{\"boolean\":true}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        namenode.start();
        try {
            writeConf(
                    conf,
                    "hdfs://127.0.0.1:29820",
                    "127.0.0.1:" + namenode.getAddress().getPort());
            YarnCluster cluster = YarnCluster.fromConf(conf, "--yarn-conf");

            assertFalse(cluster.defaultFileSystemIsLocal());
            assertTrue(cluster.deleteFromDistributedFileSystem(Path.of("/work/results/run-1/job-tmp")));
            assertEquals(
                    List.of("DELETE /webhdfs/v1/work/results/run-1/job-tmp?op=DELETE&recursive=true&user.name="
                            + System.getProperty("user.name")),
                    requests);
        } finally {
            namenode.stop(0);
        }
    }

    @Test
    void onAClusterWhoseFileSystemIsThisMachinesNothingIsAsked(@TempDir Path conf) throws Exception {
        writeConf(conf, "file:///", null);
        YarnCluster cluster = YarnCluster.fromConf(conf, "--yarn-conf");

        assertTrue(cluster.defaultFileSystemIsLocal());
        assertFalse(cluster.deleteFromDistributedFileSystem(Path.of("/work/results/run-1/job-tmp")));
    }

    private static void writeConf(Path conf, String defaultFileSystem, String namenodeWeb) throws Exception {
        Files.writeString(
                conf.resolve(YarnCluster.YARN_SITE),
                HadoopFiles.siteXml(Map.of("yarn.resourcemanager.webapp.address", "127.0.0.1:28034")));
        Files.writeString(
                conf.resolve("core-site.xml"), HadoopFiles.siteXml(Map.of("fs.defaultFS", defaultFileSystem)));
        if (namenodeWeb != null) {
            Files.writeString(
                    conf.resolve("hdfs-site.xml"),
                    HadoopFiles.siteXml(Map.of("dfs.namenode.http-address", namenodeWeb)));
        }
    }
}
