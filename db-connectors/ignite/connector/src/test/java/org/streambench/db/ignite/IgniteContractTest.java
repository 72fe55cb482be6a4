package org.streambench.db.ignite;

import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's Ignite. */
class IgniteContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("ignite");
    }
}
