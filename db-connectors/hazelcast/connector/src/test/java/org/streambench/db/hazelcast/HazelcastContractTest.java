package org.streambench.db.hazelcast;

import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's Hazelcast. */
class HazelcastContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("hazelcast");
    }
}
