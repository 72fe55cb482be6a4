package org.streambench.db.redis;

import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's Redis. */
class RedisContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("redis");
    }
}
