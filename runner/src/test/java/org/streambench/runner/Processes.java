package org.streambench.runner;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.streambench.db.Databases;
import org.streambench.local.Home;
import org.streambench.runner.cli.Bench;

/** Test helpers around real processes: the bench CLI in its own JVM, the job JVM it launched, listening sockets. */
final class Processes {

    private Processes() {}

    /** Starts {@code ./bench ARGS} as its own JVM, as a user would, with its state under {@code work}; output to {@code log}. */
    static Process bench(Path work, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Home.javaExecutable()));
        command.addAll(Databases.jvmFlags()); // as ./bench starts it
        command.addAll(List.of(
                "-Dstreambench.home=" + Home.root(),
                "-Dstreambench.work=" + work,
                "-cp",
                Home.classpathOf("runner"),
                Bench.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /** Waits until the job's metrics endpoint reports processed records. */
    static void awaitRecords(int metricsPort, long timeoutSeconds) throws InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                .build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (System.nanoTime() < deadline) {
            try {
                String body = client.send(request, HttpResponse.BodyHandlers.ofString())
                        .body();
                if (body.lines().anyMatch(l -> l.startsWith("streambench_records_total") && !l.endsWith(" 0.0"))) {
                    return;
                }
            } catch (IOException notUp) {
                // the job is still starting
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the job never processed a record within " + timeoutSeconds + " s");
    }

    /** Waits until the runner writing {@code log} says that records flow: its sampling has begun. */
    static void awaitRecordsFlowing(Process bench, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!Files.readString(log).contains("records flowing")) {
            if (!bench.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("no record flowed: " + Files.readString(log));
            }
            Thread.sleep(200);
        }
    }

    /** The job JVM among the descendants of {@code parent}: its command line names the engine's main class. */
    static Optional<ProcessHandle> jobJvm(ProcessHandle parent) {
        return parent.descendants()
                .filter(p -> {
                    String command = commandLine(p.pid());
                    return command.contains("org.streambench.flink.FlinkJob")
                            || command.contains("org.streambench.spark.SparkJob")
                            || command.contains("org.streambench.apex.ApexJob");
                })
                .findFirst();
    }

    /** The whole command line from /proc (ProcessHandle.Info leaves out long ones, such as a JVM's with its classpath). */
    static String commandLine(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"))
                    .replace('\0', ' ');
        } catch (IOException gone) {
            return "";
        }
    }

    /** Waits until no process's command line contains {@code text}; fails naming those still running after {@code seconds}. */
    static void awaitNoneNaming(String text, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            List<String> left = ProcessHandle.allProcesses()
                    .filter(p -> commandLine(p.pid()).contains(text))
                    .map(p -> p.pid() + " " + commandLine(p.pid()))
                    .toList();
            if (left.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still running " + seconds + " s later, naming " + text + ": " + left);
            }
            Thread.sleep(200);
        }
    }

    static boolean exitsWithin(ProcessHandle process, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        return !process.isAlive();
    }

    /** The local addresses ("127.0.0.1:5432", "[::]:8080") on which {@code pid} listens for TCP connections (Linux /proc). */
    static List<String> listeningAddresses(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor was closed while we listed them
                }
            }
        }
        List<String> listening = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            // read once: the table changes between two reads as other tests open and close sockets
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] columns = line.trim().split("\\s+");
                if (columns[3].equals("0A") && inodes.contains(columns[9])) { // 0A = LISTEN
                    listening.add(address(columns[1]));
                }
            }
        }
        return listening;
    }

    static boolean isLoopback(String address) {
        return address.startsWith("127.") || address.startsWith("[::1]") || address.startsWith("[::ffff:127.");
    }

    /** /proc/net/tcp's hex "0100007F:1F90" as "127.0.0.1:8080"; tcp6 addresses in brackets. */
    private static String address(String hex) {
        String[] hostPort = hex.split(":");
        int port = Integer.parseInt(hostPort[1], 16);
        String host = hostPort[0];
        if (host.length() == 8) {
            return ipv4(host) + ":" + port;
        }
        // four little-endian 32-bit words
        StringBuilder bytes = new StringBuilder();
        for (int word = 0; word < 4; word++) {
            String w = host.substring(word * 8, word * 8 + 8);
            for (int b = 3; b >= 0; b--) {
                bytes.append(w, b * 2, b * 2 + 2);
            }
        }
        String all = bytes.toString();
        if (all.startsWith("00000000000000000000FFFF")) {
            return "[::ffff:" + ipv4Big(all.substring(24)) + "]:" + port;
        }
        if (all.equals("00000000000000000000000000000001")) {
            return "[::1]:" + port;
        }
        return (all.equals("0".repeat(32)) ? "[::]" : "[" + all + "]") + ":" + port;
    }

    private static String ipv4(String littleEndianHex) {
        return Integer.parseInt(littleEndianHex.substring(6, 8), 16) + "."
                + Integer.parseInt(littleEndianHex.substring(4, 6), 16) + "."
                + Integer.parseInt(littleEndianHex.substring(2, 4), 16) + "."
                + Integer.parseInt(littleEndianHex.substring(0, 2), 16);
    }

    private static String ipv4Big(String bigEndianHex) {
        return Integer.parseInt(bigEndianHex.substring(0, 2), 16) + "."
                + Integer.parseInt(bigEndianHex.substring(2, 4), 16) + "."
                + Integer.parseInt(bigEndianHex.substring(4, 6), 16) + "."
                + Integer.parseInt(bigEndianHex.substring(6, 8), 16);
    }

    /** Sends {@code signal} (STOP, CONT, KILL, ...) to {@code process} with kill(1). */
    static void signal(String signal, ProcessHandle process) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .start()
                    .waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not send SIG" + signal + " to " + process.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
