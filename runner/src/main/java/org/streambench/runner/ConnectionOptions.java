package org.streambench.runner;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** Where the database is: an external one by its settings, or the suite's own local server. */
final class ConnectionOptions {

    @Option(names = "--db-url", description = "Connection URL of an external database (e.g. jdbc:postgresql://host:5432/db). "
            + "Without it, the suite starts its own local server.")
    String url;

    @Option(names = "--db-user", description = "User for --db-url.")
    String user;

    @Option(names = "--db-password", description = "Password for --db-url.")
    String password;

    @Option(names = "--db-setting", paramLabel = "KEY=VALUE", description = "Any other connector setting (e.g. table=t1); repeatable.")
    Map<String, String> extra = new LinkedHashMap<>();

    @Option(names = "--db-port", description = "Port of the local server, if the suite starts one (default: the database's own).")
    Integer localPort;

    @Option(names = "--keep-db", description = "Leave a local server this command started running afterwards.")
    boolean keepDb;
}
