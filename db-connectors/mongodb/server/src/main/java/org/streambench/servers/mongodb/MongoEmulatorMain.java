package org.streambench.servers.mongodb;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A MongoDB wire-protocol server (mongo-java-server, H2 MVStore on disk) in its own JVM: Netty 4.2
 * here would clash with the Cassandra driver's Netty 4.1 on the runner's classpath. It is an
 * emulator, not MongoDB: no genuine mongod can be installed on the build machines, and every
 * result and summary of a run against it says so. Usage: {@code <port> <dir>}; stops on SIGTERM.
 */
public final class MongoEmulatorMain {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path data = Files.createDirectories(Path.of(args[1]).resolve("data"));
        MongoServer server =
                new MongoServer(new H2Backend(data.resolve("mongo.mv").toString()));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.shutdown();
                            stopped.countDown();
                        },
                        "stop-mongodb-emulator"));
        server.bind("127.0.0.1", port);
        System.out.println("mongo-java-server listening on 127.0.0.1:" + port);
        stopped.await();
    }
}
