package org.streambench.db.cassandra;

import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's Cassandra. */
class CassandraContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("cassandra");
    }
}
