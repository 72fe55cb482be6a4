package org.streambench.db.hbase;

import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's HBase. */
class HBaseContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("hbase");
    }
}
