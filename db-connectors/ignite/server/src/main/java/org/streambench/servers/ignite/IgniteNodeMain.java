package org.streambench.servers.ignite;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.ignite.Ignite;
import org.apache.ignite.Ignition;
import org.apache.ignite.configuration.ClientConnectorConfiguration;
import org.apache.ignite.configuration.DataRegionConfiguration;
import org.apache.ignite.configuration.DataStorageConfiguration;
import org.apache.ignite.configuration.IgniteConfiguration;
import org.apache.ignite.spi.communication.tcp.TcpCommunicationSpi;
import org.apache.ignite.spi.discovery.tcp.TcpDiscoverySpi;
import org.apache.ignite.spi.discovery.tcp.ipfinder.vm.TcpDiscoveryVmIpFinder;
import org.streambench.servers.ServerMain;

/**
 * One Ignite server node, alone: thin clients on 127.0.0.1:{@code port}, discovery on {@code port
 * + 1}, communication on {@code port + 2}; its work folder under {@code dir}; stops on SIGTERM.
 * Usage: {@code <port> <dir>}.
 */
public final class IgniteNodeMain {

    static final long DATA_REGION_BYTES = 8L << 30;

    private IgniteNodeMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path dir = Path.of(args[1]);
        String loopback = "127.0.0.1";
        IgniteConfiguration config = new IgniteConfiguration()
                .setIgniteInstanceName("streambench")
                .setLocalHost(loopback)
                .setWorkDirectory(Files.createDirectories(dir.resolve("work")).toString())
                .setMetricsLogFrequency(0)
                .setConnectorConfiguration(null)
                .setClientConnectorConfiguration(new ClientConnectorConfiguration()
                        .setHost(loopback)
                        .setPort(port)
                        .setPortRange(0))
                .setDiscoverySpi(new TcpDiscoverySpi()
                        .setLocalAddress(loopback)
                        .setLocalPort(port + 1)
                        .setLocalPortRange(0)
                        .setIpFinder(new TcpDiscoveryVmIpFinder().setAddresses(List.of(loopback + ":" + (port + 1)))))
                .setCommunicationSpi(new TcpCommunicationSpi()
                        .setLocalAddress(loopback)
                        .setLocalPort(port + 2)
                        .setLocalPortRange(0))
                .setDataStorageConfiguration(new DataStorageConfiguration()
                        .setDefaultDataRegionConfiguration(
                                new DataRegionConfiguration().setName("default").setMaxSize(DATA_REGION_BYTES)));
        Ignite node = Ignition.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            node.close();
                            stopped.countDown();
                        },
                        "stop-ignite"));
        Files.writeString(dir.resolve(ServerMain.READY_FILE), "ready\n");
        System.out.println("ignite node: thin clients on " + loopback + ":" + port);
        stopped.await();
    }
}
