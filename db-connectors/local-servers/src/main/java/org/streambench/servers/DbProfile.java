package org.streambench.servers;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.streambench.local.UserError;

/**
 * How durable the suite's own servers are. {@link #DEFAULT} is each vendor's default, as the study
 * configured its databases; {@link #FAST} gives up durability on purpose where the default makes a
 * write wait for the disk: PostgreSQL without fsync, synchronous commit and full-page writes,
 * MariaDB writing and flushing its redo log once a second instead of at every commit, HBase
 * writing its WAL asynchronously. Cassandra (its commit log is synced every 10 s by default) and
 * the MongoDB emulator (no disk) are the same in both. {@link #DURABLE} makes every write the server
 * acknowledged survive its crash, which a guarantee's promise after a killed server rests on:
 * Cassandra syncs its commit log before it answers ({@code commitlog_sync: batch}), HBase syncs its
 * WAL to disk ({@code FSYNC_WAL}), Redis appends every write to its AOF and fsyncs it ({@code
 * appendfsync always}); PostgreSQL and MariaDB do so by default. A server that keeps nothing on disk
 * (the MongoDB emulator, Hazelcast, Ignite) has no such profile.
 */
public enum DbProfile {
    DEFAULT,
    FAST,
    DURABLE;

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static DbProfile parse(String option, String text) {
        for (DbProfile profile : values()) {
            if (profile.cliName().equals(text.trim())) {
                return profile;
            }
        }
        throw new UserError(option + " '" + text + "' is not a profile; use one of: "
                + Arrays.stream(values()).map(DbProfile::cliName).collect(Collectors.joining(", ")));
    }
}
