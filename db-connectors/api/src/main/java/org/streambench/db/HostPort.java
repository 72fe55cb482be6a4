package org.streambench.db;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One member of a comma-separated {@code host[:port],host[:port],...} list, as Cassandra's contact
 * points and HBase's ZooKeeper quorum are given; every connector that takes such a list reads it
 * here, so a malformed one is refused with the same message before anything starts.
 */
public record HostPort(String host, int port) {

    /**
     * The members of {@code list}, the setting {@code key} of {@code database}; a member without a
     * port gets {@code defaultPort}. Malformed: {@link DatabaseException}.
     */
    public static List<HostPort> parseList(String list, int defaultPort, String key, String database) {
        List<HostPort> members = new ArrayList<>();
        for (String member : list.split(",", -1)) {
            String entry = member.trim();
            String host;
            String port;
            if (entry.startsWith("[")) { // an IPv6 address
                int close = entry.indexOf(']');
                host = entry.substring(0, close + 1);
                port = close < 0 ? "" : entry.substring(close + 1);
            } else {
                int colon = entry.indexOf(':');
                host = colon < 0 ? entry : entry.substring(0, colon);
                port = colon < 0 ? "" : entry.substring(colon);
            }
            if (host.isEmpty()) {
                throw malformed(list, key, database, "'" + entry + "' has no host");
            }
            if (port.isEmpty()) {
                members.add(new HostPort(host, defaultPort));
                continue;
            }
            String digits = port.substring(1);
            int number = port.startsWith(":") && digits.matches("[0-9]{1,5}") ? Integer.parseInt(digits) : -1;
            if (number < 1 || number > 65535) {
                throw malformed(list, key, database, "'" + entry + "' has no port from 1 to 65535 after its host");
            }
            members.add(new HostPort(host, number));
        }
        return members;
    }

    private static DatabaseException malformed(String list, String key, String database, String why) {
        return new DatabaseException(
                database + ": " + key + " '" + list + "' must be host[:port],host[:port],... (" + why + ")");
    }

    /** The member's address, resolved now. */
    public InetSocketAddress address() {
        return new InetSocketAddress(host, port);
    }
}
