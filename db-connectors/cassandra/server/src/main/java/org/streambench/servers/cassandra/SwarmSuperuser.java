package org.streambench.servers.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Secures the single-node swarm's Cassandra cluster once its nodes are up (run in the first node's
 * container by docker-swarm/images/cassandra/cassandra-entrypoint.sh): system_auth replicated to
 * every node, so any node can check a login; a superuser {@code streambench} with the password of
 * the stack's secret, as the other stacks' user; the default superuser {@code cassandra}, whose
 * password everyone knows, no longer able to log in.
 *
 * <p>Arguments: host, CQL port, the password file, the number of nodes. Exits 0 once done (also when
 * an earlier run did it), 1 if it could not within 10 minutes.
 */
public final class SwarmSuperuser {

    static final String USER = "streambench";
    private static final String DEFAULT_SUPERUSER = "cassandra";
    private static final Duration PATIENCE = Duration.ofMinutes(10);

    private SwarmSuperuser() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: SwarmSuperuser HOST PORT PASSWORD_FILE NODES");
            System.exit(2);
        }
        InetSocketAddress node = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        String password =
                Files.readString(Path.of(args[2]), StandardCharsets.UTF_8).strip();
        int nodes = Integer.parseInt(args[3]);
        if (!password.matches("[A-Za-z0-9]{8,}")) {
            System.err.println("the password must be at least 8 letters and digits (it goes into a CQL literal)");
            System.exit(2);
        }
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            try {
                secure(node, password, nodes);
                System.out.println("streambench: system_auth on " + nodes + " nodes, superuser " + USER + ", superuser "
                        + DEFAULT_SUPERUSER + " disabled");
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    System.err.println("streambench: could not secure the cluster within " + PATIENCE.toMinutes()
                            + " minutes: " + e);
                    System.exit(1);
                }
                Thread.sleep(3_000);
            }
        }
    }

    private static void secure(InetSocketAddress node, String password, int nodes) {
        try (CqlSession session = AdminSessions.open(node, DEFAULT_SUPERUSER, DEFAULT_SUPERUSER)) {
            int peers = session.execute("SELECT peer FROM system.peers").all().size();
            if (peers < nodes - 1) {
                throw new IllegalStateException(peers + " of " + (nodes - 1) + " peers have joined");
            }
            session.execute("ALTER KEYSPACE system_auth WITH replication = {'class': 'SimpleStrategy',"
                    + " 'replication_factor': " + nodes + "}");
            session.execute("CREATE ROLE IF NOT EXISTS " + USER + " WITH PASSWORD = '" + password
                    + "' AND SUPERUSER = true AND LOGIN = true");
        } catch (AuthenticationException | AllNodesFailedException e) {
            if (!defaultSuperuserRefused(e)) {
                throw e;
            }
            // an earlier run got this far: the default superuser is already disabled
        }
        try (CqlSession session = AdminSessions.open(node, USER, password)) {
            session.execute("ALTER ROLE " + DEFAULT_SUPERUSER + " WITH SUPERUSER = false AND LOGIN = false");
        }
    }

    private static boolean defaultSuperuserRefused(RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("is not permitted to log in");
    }
}
