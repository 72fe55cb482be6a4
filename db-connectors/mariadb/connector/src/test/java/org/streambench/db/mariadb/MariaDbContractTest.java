package org.streambench.db.mariadb;

import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's MariaDB. */
class MariaDbContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("mariadb");
    }
}
