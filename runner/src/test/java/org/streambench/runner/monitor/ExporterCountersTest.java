package org.streambench.runner.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.model.RunDocument;

/** An exporter's text exposition: its counters only, and what a node exporter's say of a window. */
class ExporterCountersTest {

    @Test
    void onlyCounterSeriesAreKeptWithTheirLabelsAndTheExportersOwnProcessIsLeftOut() {
        String exposition =
                """
                # HELP pg_stat_database_xact_commit Number of transactions committed
                # TYPE pg_stat_database_xact_commit counter
                pg_stat_database_xact_commit{datid="5",datname="bench db"} 1234
                pg_stat_database_xact_commit{datid="1",datname="odd {name}"} 7 1764000000000
                # TYPE pg_up gauge
                pg_up 1
                # TYPE mysql_global_status_commands counter
                mysql_global_status_commands_total{command="update"} 5e3
                # TYPE process_cpu_seconds_total counter
                process_cpu_seconds_total 0.5
                # TYPE go_memstats_alloc_bytes_total counter
                go_memstats_alloc_bytes_total 1e6
                # TYPE pg_exporter_scrapes_total counter
                pg_exporter_scrapes_total 3
                # TYPE node_context_switches_total counter
                node_context_switches_total 99
                """;
        assertEquals(
                Map.of(
                        "pg_stat_database_xact_commit{datid=\"5\",datname=\"bench db\"}", 1234.0,
                        "pg_stat_database_xact_commit{datid=\"1\",datname=\"odd {name}\"}", 7.0,
                        "mysql_global_status_commands_total{command=\"update\"}", 5000.0,
                        "node_context_switches_total", 99.0),
                ExporterCounters.parse(exposition));
    }

    @Test
    void aNodeExportersBusyCpuAndDiskWritesAreSummedOverTheWindow() {
        Map<String, Double> start = Map.of(
                "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"}", 100.0,
                "node_cpu_seconds_total{cpu=\"1\",mode=\"system\"}", 50.0,
                "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"}", 23615.5,
                "node_cpu_seconds_total{cpu=\"0\",mode=\"iowait\"}", 10.0,
                "node_cpu_seconds_total{cpu=\"0\",mode=\"steal\"}", 1.0,
                "node_disk_written_bytes_total{device=\"vda\"}", 1e9,
                "node_disk_written_bytes_total{device=\"dm-0\"}", 1e9,
                "node_disk_written_bytes_total{device=\"zram0\"}", 0.0);
        Map<String, Double> end = Map.of(
                "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"}", 104.0,
                "node_cpu_seconds_total{cpu=\"1\",mode=\"system\"}", 51.5,
                "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"}", 23618.15,
                "node_cpu_seconds_total{cpu=\"0\",mode=\"iowait\"}", 12.0,
                "node_cpu_seconds_total{cpu=\"0\",mode=\"steal\"}", 2.0,
                "node_disk_written_bytes_total{device=\"vda\"}", 1e9 + 4096,
                "node_disk_written_bytes_total{device=\"dm-0\"}", 1e9 + 4096,
                "node_disk_written_bytes_total{device=\"zram0\"}", 0.0);
        RunDocument.ExporterUse use = ExporterCounters.use("http://db:9100/metrics", start, end, 500_000);
        assertEquals(5.5, use.busyCpuSeconds(), 1e-9, "user and system; idle, iowait and steal are not busy");
        assertEquals(11.0, use.busyCpuSecondsPerMillionRecords(), 1e-9);
        assertEquals(4096L, use.diskWriteBytes(), "the disk once, not again through its device-mapper device");
        assertEquals(4096 / 500_000.0, use.diskWriteBytesPerRecord(), 1e-12);
        assertEquals(7, use.counterGrowth().size(), "every series that grew: " + use.counterGrowth());
        assertNull(use.counterGrowth().get("node_disk_written_bytes_total{device=\"zram0\"}"), "it did not grow");
        assertEquals(
                2.65,
                use.counterGrowth().get("node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"}"),
                "without the noise of the last bits (2.650000000001455)");
    }

    @Test
    void anExporterOfNoMachineHasNoMachineFigures() {
        Map<String, Double> start = Map.of("pg_stat_database_xact_commit{datname=\"b\"}", 10.0);
        Map<String, Double> end = Map.of("pg_stat_database_xact_commit{datname=\"b\"}", 25.0);
        RunDocument.ExporterUse use = ExporterCounters.use("http://db:9187/metrics", start, end, 15);
        assertNull(use.busyCpuSeconds());
        assertNull(use.busyCpuSecondsPerMillionRecords());
        assertNull(use.diskWriteBytes());
        assertNull(use.diskWriteBytesPerRecord());
        assertEquals(Map.of("pg_stat_database_xact_commit{datname=\"b\"}", 15.0), use.counterGrowth());
    }
}
