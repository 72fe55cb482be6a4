package org.streambench.db.mariadb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseSettings;
import org.streambench.servers.TestServers;

/**
 * The words the connector refuses as a table name before anything starts are the words the real
 * server refuses: every one fails a CREATE TABLE, and a name that is no reserved word does not.
 */
@Tag("integration")
class MariaDbReservedWordsTest {

    @Test
    void everyRefusedWordIsOneTheServerRefusesToo() throws SQLException {
        Set<String> reserved = DatabaseSettings.reservedWords(MariaDbDatabase.class, "reserved-words.txt");
        assertTrue(reserved.size() > 50, "the list is read: " + reserved.size());
        Map<String, String> settings = TestServers.start("mariadb").settings();
        List<String> accepted = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(
                        settings.get("url"), settings.get("user"), settings.get("password"));
                Statement statement = connection.createStatement()) {
            for (String word : reserved) {
                try {
                    statement.execute("CREATE TABLE " + word.toLowerCase(java.util.Locale.ROOT) + " (x INTEGER)");
                    statement.execute("DROP TABLE " + word.toLowerCase(java.util.Locale.ROOT));
                    accepted.add(word);
                } catch (SQLException refused) {
                    // as the list says
                }
            }
            statement.execute("CREATE TABLE readings (x INTEGER)");
            statement.execute("DROP TABLE readings");
        }
        assertEquals(List.of(), accepted, "words the server takes as table names");
        DatabaseException refused = assertThrows(DatabaseException.class, () -> new MariaDbDatabase.Provider()
                .checkSettings(new DatabaseSettings(Map.of("table", "select"))));
        assertTrue(refused.getMessage().contains("reserved word"), refused.getMessage());
    }
}
