package org.streambench.runner.monitor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.RunDocument;

/** What a role used over the window, from /proc: CPU time as a difference, per record, and memory at its highest. */
class ResourceWatchTest {

    @Test
    void aProcessNameWithSpacesAndParenthesesDoesNotShiftTheFields() {
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 9 0 0 0 1234 56 7 8 20 0 30 0 100 5000 1200";
        assertArrayEquals(new long[] {1234, 56, 7, 8}, ProcessUsage.cpuTimes(stat));
        assertEquals(
                2_048_000L, ProcessUsage.residentBytes(List.of("Name:\tjava", "VmRSS:\t    2000 kB", "Threads: 3")));
    }

    @Test
    void theCpuTimeSpentInTheWindowIsCountedPerMillionRecords() {
        Supplier<Collection<ProcessHandle>> self = () -> List.of(ProcessHandle.current());
        ResourceWatch watch = new ResourceWatch(
                Map.of("runner", self), Map.of("database", "elsewhere"), null, Map::of, ExporterCounters.NONE);
        assertNull(watch.resources(1000, 100), "no window yet");
        watch.windowStarts();
        long until = System.nanoTime() + 400_000_000L;
        long spin = 0;
        while (System.nanoTime() < until) {
            spin += Long.numberOfTrailingZeros(spin + 1);
        }
        watch.second();
        watch.windowEnds();
        RunDocument.Resources resources = watch.resources(2_000_000, 100);
        RunDocument.ProcessUse runner = resources.roles().get("runner");
        assertTrue(runner.cpuSeconds() >= 0.2, "0.4 s of spinning: " + runner + " " + spin);
        assertEquals(runner.cpuSeconds() / 2, runner.cpuSecondsPerMillionRecords(), 1e-9);
        assertTrue(runner.peakRssBytes() > 10_000_000L, "a JVM's resident memory: " + runner);
        assertEquals(1, runner.processes());
        assertTrue(resources.windowSeconds() >= 0.4, resources.toString());
        assertNull(resources.writeAmplification(), "no database role: " + resources);
        assertEquals(Map.of("database", "elsewhere"), resources.notSeen());
    }

    @Test
    void eachSecondSaysHowManyCoresEachRoleUsedSinceThePreviousOne() {
        Supplier<Collection<ProcessHandle>> self = () -> List.of(ProcessHandle.current());
        ResourceWatch watch = new ResourceWatch(Map.of("runner", self), Map.of(), null, Map::of, ExporterCounters.NONE);
        assertEquals(Map.of(), watch.second(), "the first sample only starts the count");
        long until = System.nanoTime() + 500_000_000L;
        long spin = 0;
        while (System.nanoTime() < until) {
            spin += Long.numberOfTrailingZeros(spin + 1);
        }
        double spinning = watch.second().get("runner");
        assertTrue(spinning > 0.4 && spinning < 4, "one thread spinning, about one core: " + spinning + " " + spin);
        assertEquals(Map.of(), ResourceWatch.NONE.second(), "a watch of nothing samples nothing");
    }

    @Test
    void writeAmplificationIsTheDevicesBytesWrittenPerPayloadByte(@TempDir Path dir) throws Exception {
        String device = DeviceUsage.holding(dir).orElse(null);
        Assumptions.assumeTrue(
                device != null, "the temporary folder is on no block device (tmpfs)"); // then nothing to watch
        Supplier<Collection<ProcessHandle>> self = () -> List.of(ProcessHandle.current());
        ResourceWatch watch =
                new ResourceWatch(Map.of("database", self), Map.of(), device, Map::of, ExporterCounters.NONE);
        watch.windowStarts();
        try (FileChannel file =
                FileChannel.open(dir.resolve("written"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            file.write(ByteBuffer.allocate(4_000_000));
            file.force(true);
        }
        watch.windowEnds();
        RunDocument.Resources resources = watch.resources(1000, 100);
        assertTrue(resources.deviceWriteBytes() >= 4_000_000L, "the 4 MB forced to " + device + ": " + resources);
        assertEquals(resources.deviceWriteBytes() / 100_000.0, resources.writeAmplification(), 1e-9);
        assertNull(watch.resources(1000, null).writeAmplification(), "records that write nothing (read)");
    }

    @Test
    void theDatabasesCountersAreRecordedAsTheirGrowthInTheWindow() {
        AtomicLong wal = new AtomicLong(1000);
        ResourceWatch watch = new ResourceWatch(
                Map.of("runner", () -> List.of(ProcessHandle.current())),
                Map.of(),
                null,
                () -> Map.of("wal_bytes", wal.get(), "xact_commit", 7L),
                ExporterCounters.NONE);
        watch.windowStarts();
        wal.addAndGet(8192);
        watch.windowEnds();
        assertEquals(
                Map.of("wal_bytes", 8192L, "xact_commit", 0L),
                watch.resources(10, 100).databaseCounters());
    }

    @Test
    void theExportersCountersAreReadOverHttpAtTheWindowsEndsAndOneThatDoesNotAnswerIsNamed() throws Exception {
        // read on a thread of their own at about the window's ends: each read finds 12 more seconds busy
        AtomicLong busy = new AtomicLong(88);
        HttpServer node = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        node.createContext("/metrics", exchange -> {
            long now = busy.addAndGet(12);
            byte[] body = ("# TYPE node_cpu_seconds_total counter\n"
                            + "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} " + now + "\n"
                            + "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} " + now * 3 + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        node.start();
        int closedPort;
        try (ServerSocket nobody = new ServerSocket(0)) {
            closedPort = nobody.getLocalPort();
        }
        try {
            URI nodeUrl = URI.create("http://127.0.0.1:" + node.getAddress().getPort() + "/metrics");
            ResourceWatch watch = new ResourceWatch(
                    Map.of("runner", () -> List.of(ProcessHandle.current())),
                    Map.of(),
                    null,
                    Map::of,
                    new ExporterCounters(List.of(
                            new ScrapeTargets.Exporter("dbnode", nodeUrl),
                            new ScrapeTargets.Exporter(
                                    "gone", URI.create("http://127.0.0.1:" + closedPort + "/metrics")))));
            watch.windowStarts();
            watch.windowEnds();
            RunDocument.Resources resources = watch.resources(2_000_000, 100);
            RunDocument.ExporterUse dbnode = resources.exporters().get("dbnode");
            assertEquals(nodeUrl.toString(), dbnode.url());
            assertEquals(12.0, dbnode.busyCpuSeconds(), 1e-9, "user time counts, idle does not: " + dbnode);
            assertEquals(6.0, dbnode.busyCpuSecondsPerMillionRecords(), 1e-9);
            assertEquals(
                    Map.of(
                            "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"}", 12.0,
                            "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"}", 36.0),
                    dbnode.counterGrowth());
            assertEquals(List.of("dbnode"), List.copyOf(resources.exporters().keySet()), resources.toString());
            assertTrue(
                    resources.notSeen().get("exporter gone").contains("did not answer"),
                    "an exporter that does not answer is named: " + resources.notSeen());
            assertTrue(
                    ResourceWatch.describe(resources).contains("exporter dbnode: the machine busy 12.0 CPU-s"),
                    ResourceWatch.describe(resources));
        } finally {
            node.stop(0);
        }
    }

    @Test
    void aSlowExporterNeverHoldsUpTheWindowsEndsWhichTheRunnersSamplingCalls() throws Exception {
        HttpServer slow = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        AtomicLong reads = new AtomicLong();
        slow.createContext("/metrics", exchange -> {
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = ("# TYPE pg_stat_database_xact_commit counter\npg_stat_database_xact_commit "
                            + reads.addAndGet(5) + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        slow.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(2));
        slow.start();
        try {
            ResourceWatch watch = new ResourceWatch(
                    Map.of("runner", () -> List.of(ProcessHandle.current())),
                    Map.of(),
                    null,
                    Map::of,
                    new ExporterCounters(List.of(new ScrapeTargets.Exporter(
                            "db",
                            URI.create("http://127.0.0.1:" + slow.getAddress().getPort() + "/metrics")))));
            long before = System.nanoTime();
            watch.windowStarts();
            watch.windowEnds();
            long heldMillis = (System.nanoTime() - before) / 1_000_000;
            assertTrue(
                    heldMillis < 1000,
                    "an exporter answering after 1.5 s held the window's ends " + heldMillis + " ms");
            assertEquals(
                    Map.of("pg_stat_database_xact_commit", 5.0),
                    watch.resources(10, 100).exporters().get("db").counterGrowth(),
                    "what it answered still counts");
        } finally {
            slow.stop(0);
        }
    }

    @Test
    void aDeviceStatLineGivesSectorsOf512Bytes() {
        DeviceUsage usage = DeviceUsage.parse(
                "vda", " 1373479    55914 53504778  1152114 23896102  1236959 480072208  2222751 0 1 2");
        assertEquals(53_504_778L * 512, usage.readBytes());
        assertEquals(480_072_208L * 512, usage.writeBytes());
    }
}
