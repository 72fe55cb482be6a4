package org.streambench.servers.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.streambench.servers.LocalServers;

/**
 * One Hazelcast member, alone on 127.0.0.1:{@code port}, its cluster named with the password kept in
 * {@code dir}; stops on SIGTERM. Usage: {@code <port> <dir>}.
 */
public final class HazelcastMemberMain {

    private HazelcastMemberMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path dir = Path.of(args[1]);
        Config config = new Config();
        config.setClusterName(LocalServers.password(dir));
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.local.localAddress", "127.0.0.1");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(port).setPortAutoIncrement(false).setPortCount(1);
        network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        config.getJetConfig().setEnabled(false);
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            member.shutdown();
                            stopped.countDown();
                        },
                        "stop-hazelcast"));
        System.out.println("hazelcast member listening on 127.0.0.1:" + port);
        stopped.await();
    }
}
