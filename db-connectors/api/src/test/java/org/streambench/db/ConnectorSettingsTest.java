package org.streambench.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The setting forms every connector reads alike: host:port lists and identifiers. */
class ConnectorSettingsTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "db1|db1:9042",
                "db1:19042|db1:19042",
                "db1, db2:1 ,db3:65535|db1:9042,db2:1,db3:65535",
                "[::1]:7000,[fe80::1]|[::1]:7000,[fe80::1]:9042",
            })
    void aHostPortListGivesEveryMemberItsPortOrTheDefault(String list, String expected) {
        List<HostPort> members = HostPort.parseList(list, 9042, "url", "cassandra");
        assertEquals(
                expected,
                String.join(
                        ",",
                        members.stream()
                                .map(member -> member.host() + ":" + member.port())
                                .toList()));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "db1:abc|'db1:abc' has no port from 1 to 65535 after its host",
                "db1:0|'db1:0' has no port from 1 to 65535 after its host",
                "db1:65536|'db1:65536' has no port from 1 to 65535 after its host",
                "db1:|'db1:' has no port from 1 to 65535 after its host",
                "db1:1:2|'db1:1:2' has no port from 1 to 65535 after its host",
                "db1,,db2|'' has no host",
                ":9042|':9042' has no host",
                "[::1|'[::1' has no host",
                "[::1]x|'[::1]x' has no port from 1 to 65535 after its host",
            })
    void aMalformedHostPortListIsRefusedNamingTheBadMember(String list, String why) {
        DatabaseException refused =
                assertThrows(DatabaseException.class, () -> HostPort.parseList(list, 2181, "url", "hbase"));
        assertEquals(
                "hbase: url '" + list + "' must be host[:port],host[:port],... (" + why + ")", refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sensor_records", "_t", "T9"})
    void aPlainIdentifierIsTakenAsItIs(String name) {
        assertEquals(name, new DatabaseSettings(Map.of("table", name)).identifier("table", "x", "postgresql", "SQL"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bad-name", "9t", "t;DROP TABLE x", "", "a.b"})
    void anIdentifierThatIsNotPlainIsRefused(String name) {
        DatabaseSettings settings = new DatabaseSettings(Map.of("keyspace", name));
        DatabaseException refused = assertThrows(
                DatabaseException.class, () -> settings.identifier("keyspace", "streambench", "cassandra", "CQL"));
        assertEquals(
                "cassandra: keyspace '" + name
                        + "' must be a plain CQL identifier (letters, digits, _; not a digit first)",
                refused.getMessage());
    }

    @Test
    void anAbsentSettingFallsBackToTheDefault() {
        assertEquals(
                "sensor_records",
                new DatabaseSettings(Map.of()).identifier("table", "sensor_records", "mariadb", "SQL"));
    }
}
