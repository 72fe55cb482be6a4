package org.streambench.servers.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.net.InetSocketAddress;

/** The sessions that secure a server the suite started: one node, a superuser, closed at once. */
final class AdminSessions {

    private AdminSessions() {}

    static CqlSession open(InetSocketAddress node, String user, String password) {
        return CqlSession.builder()
                .addContactPoint(node)
                .withLocalDatacenter("datacenter1")
                .withAuthCredentials(user, password)
                // Netty's default quiet period makes every close take 2 s, which a start waits for
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                        .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
                        .build())
                .build();
    }
}
