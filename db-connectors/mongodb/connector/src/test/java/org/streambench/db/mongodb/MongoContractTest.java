package org.streambench.db.mongodb;

import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's MongoDB wire-protocol emulator (not MongoDB). */
class MongoContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("mongodb");
    }
}
