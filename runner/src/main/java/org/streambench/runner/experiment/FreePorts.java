package org.streambench.runner.experiment;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A free port for a job to bind a few seconds later. A port the kernel hands out for "any free
 * port" lies in its ephemeral range, where every outgoing connection (the prefill's, the job's own
 * database connections) also takes its local port, so in the seconds until the job binds it one of
 * those can take it (ChaosTest saw an Apex job fail so under a CPU hog). Below that range only
 * listening sockets take ports.
 */
final class FreePorts {

    /** The lowest port tried: above the well-known and most registered services' ports. */
    static final int LOWEST = 20000;

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int ATTEMPTS = 50;

    private FreePorts() {}

    /** A port of {@code host} that is free now and below the ephemeral range; empty if none is found (or the range is unknown). */
    static Optional<Integer> belowEphemeralRange(String host) {
        int firstEphemeral = firstEphemeralPort();
        if (firstEphemeral <= LOWEST + 1) {
            return Optional.empty();
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, firstEphemeral);
            try (ServerSocket socket = new ServerSocket()) {
                socket.bind(new InetSocketAddress(host, port));
                return Optional.of(port);
            } catch (IOException | IllegalArgumentException taken) {
                // another one
            }
        }
        return Optional.empty();
    }

    /** The first port of the kernel's ephemeral range (Linux's default 32768); 0 when it cannot be read. */
    static int firstEphemeralPort() {
        try {
            // line-wise: Files.readString returned a cut-off text for this /proc file here
            String[] range = Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+");
            return Integer.parseInt(range[0]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
