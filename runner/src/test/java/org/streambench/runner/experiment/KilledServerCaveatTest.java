package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.streambench.model.RunDocument;
import org.streambench.operators.Guarantee;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServers;

/**
 * Which of the suite's own servers keep every write they acknowledged through a SIGKILL, per
 * profile, and the caveat a guarantee's audit after {@code --fault kill-db} carries where they do not.
 */
class KilledServerCaveatTest {

    @ParameterizedTest
    @CsvSource({
        "postgresql, default, true",
        "postgresql, durable, true",
        "postgresql, fast, false",
        "mariadb, default, true",
        "mariadb, fast, false",
        "cassandra, default, false",
        "cassandra, durable, true",
        "hbase, default, false",
        "hbase, durable, true",
        "redis, default, false",
        "redis, fast, false",
        "redis, durable, true",
        "hazelcast, default, false",
        "ignite, default, false",
        "mongodb, default, false"
    })
    void aServerKeepsWhatItAcknowledgedThroughAKillOnlyWhereItsProfileSyncsEveryWrite(
            String database, String profile, boolean keeps) {
        Optional<String> caveat =
                LocalServers.killLosesAcknowledgedWrites(database, DbProfile.parse("--db-profile", profile));
        assertEquals(keeps, caveat.isEmpty(), caveat.toString());
        caveat.ifPresent(text -> assertTrue(text.startsWith(database + " "), text));
    }

    @Test
    void aServerWithoutDataOnDiskIsSaidToStartAgainEmpty() {
        assertTrue(LocalServers.killLosesAcknowledgedWrites("hazelcast", DbProfile.DEFAULT)
                .orElseThrow()
                .contains("keeps nothing on disk: killed, it starts again empty"));
        assertTrue(LocalServers.killLosesAcknowledgedWrites("redis", DbProfile.DEFAULT)
                .orElseThrow()
                .contains("--db-profile durable keeps every one"));
    }

    @Test
    void aFailedRunNamesTheCaveatAndAPassedOneStaysPassed() {
        String caveat = "redis on its default profile may lose writes it acknowledged when it is killed";
        String audit =
                ExperimentRunner.auditFailure(Guarantee.EXACTLY_ONCE, new RunDocument.Audit(1000, 0, 14, 0, List.of()));
        assertEquals(audit + " (" + caveat + ")", ExperimentRunner.withKillCaveat(audit, Optional.of(caveat)));
        assertEquals(audit, ExperimentRunner.withKillCaveat(audit, Optional.empty()));
        assertNull(ExperimentRunner.withKillCaveat(null, Optional.of(caveat)));
    }
}
