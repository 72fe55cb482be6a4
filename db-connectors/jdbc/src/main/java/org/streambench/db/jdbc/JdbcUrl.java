package org.streambench.db.jdbc;

import java.net.URI;
import java.net.URISyntaxException;
import org.streambench.db.DatabaseException;

/**
 * The first host, port and database of a JDBC URL ({@code jdbc:postgresql://host[:port][,...]/db?...}),
 * for the tools that take them apart (the database's own load tool).
 */
public record JdbcUrl(String host, int port, String database) {

    public static JdbcUrl parse(String url, int defaultPort) {
        int scheme = url.indexOf("://");
        if (!url.startsWith("jdbc:") || scheme < 0) {
            throw new DatabaseException(
                    "'" + url + "' is not a JDBC URL of the form jdbc:<driver>://host[:port]/database");
        }
        String rest = url.substring(scheme + 3);
        int slash = rest.indexOf('/');
        String hosts = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash + 1);
        int query = path.indexOf('?');
        String database = query < 0 ? path : path.substring(0, query);
        String first = hosts.split(",")[0];
        try {
            URI uri = new URI("tcp://" + first);
            if (uri.getHost() == null || database.isEmpty()) {
                throw new URISyntaxException(url, "no host or no database");
            }
            String host = uri.getHost().replaceAll("^\\[|\\]$", ""); // an IPv6 address without its brackets
            return new JdbcUrl(host, uri.getPort() < 0 ? defaultPort : uri.getPort(), database);
        } catch (URISyntaxException e) {
            throw new DatabaseException("cannot take a host, port and database from '" + url + "'", e);
        }
    }
}
