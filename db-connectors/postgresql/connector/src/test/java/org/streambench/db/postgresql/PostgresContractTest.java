package org.streambench.db.postgresql;

import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's PostgreSQL. */
class PostgresContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("postgresql");
    }
}
