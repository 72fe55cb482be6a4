package org.streambench.db.mongodb;

import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.in;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoException;
import com.mongodb.WriteConcern;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.InsertOneModel;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;
import com.mongodb.client.result.UpdateResult;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.bson.Document;
import org.bson.types.Binary;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;

/**
 * MongoDB through the official sync driver; works against any MongoDB URI, a sharded cluster
 * behind mongos included. {@code _id} = record id, the BLOB as BSON Binary. Settings: {@code url}
 * (a mongodb:// URI), {@code database} (the URI's, else streambench), {@code table} (the
 * collection, sensor_records), {@code writeConcern} (acknowledged), {@code shard} (true: shard
 * the collection on a hashed {@code _id} when the schema is reset).
 */
public final class MongoDbDatabase implements Database {

    private static final long BATCH_BYTES = 8L << 20;
    private static final int BATCH_DOCUMENTS = 1000;
    private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);
    /** MongoDB 4.4, the first with {@code $binarySize}. */
    private static final int WIRE_VERSION_4_4 = 9;

    private MongoClient client;
    private MongoDatabase database;
    private MongoCollection<Document> collection;
    private String writeConcernName;
    private String collectionName;
    private boolean shard;
    private boolean beforeMongoDb44;
    private String reportedVersion;
    private boolean genuineMongoDb;
    private boolean upsertInserts;

    @Override
    public void open(DatabaseSettings settings) {
        String url = settings.require("url", "mongodb");
        try {
            ConnectionString uri = new ConnectionString(url);
            String databaseName =
                    settings.get("database", uri.getDatabase() != null ? uri.getDatabase() : "streambench");
            collectionName = settings.get("table", "sensor_records");
            writeConcernName = settings.get("writeConcern", "acknowledged");
            shard = Boolean.parseBoolean(settings.get("shard", "false"));
            client = MongoClients.create(MongoClientSettings.builder()
                    .applyConnectionString(withPassword(uri, url, settings.get("password", "")))
                    .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS))
                    .applyToSocketSettings(socket -> socket.connectTimeout(5, TimeUnit.SECONDS))
                    .writeConcern(writeConcern(writeConcernName))
                    .build());
            database = client.getDatabase(databaseName);
            Document buildInfo = database.runCommand(new Document("buildInfo", 1));
            reportedVersion = buildInfo.getString("version");
            // every mongod and mongos reports the commit it was built from; mongo-java-server does not
            genuineMongoDb = buildInfo.containsKey("gitVersion");
            beforeMongoDb44 = client.getClusterDescription().getServerDescriptions().stream()
                    .anyMatch(server -> server.isOk() && server.getMaxWireVersion() < WIRE_VERSION_4_4);
            collection = database.getCollection(collectionName);
        } catch (MongoException | IllegalArgumentException e) {
            close();
            throw new DatabaseException(
                    "cannot connect to mongodb at " + url + ": " + DatabaseException.firstLine(e), e);
        }
    }

    /**
     * The URI with {@code password} put back into its user info: the runner takes a password out of
     * the URI it records in result files and passes it on apart, as the "password" setting.
     */
    private static ConnectionString withPassword(ConnectionString uri, String url, String password) {
        if (password.isEmpty() || uri.getUsername() == null || uri.getPassword() != null) {
            return uri;
        }
        int at = url.indexOf('@');
        return new ConnectionString(url.substring(0, at) + ":"
                + URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20") + url.substring(at));
    }

    private static WriteConcern writeConcern(String name) {
        WriteConcern concern = WriteConcern.valueOf(name);
        if (concern == null) {
            throw new DatabaseException("mongodb: " + "unknown write concern '" + name
                    + "' (acknowledged, w1, w2, majority, journaled, unacknowledged)");
        }
        return concern;
    }

    @Override
    public void resetSchema() {
        try {
            collection.drop();
            database.createCollection(collectionName);
            if (shard) {
                client.getDatabase("admin")
                        .runCommand(new Document("shardCollection", database.getName() + "." + collectionName)
                                .append("key", new Document("_id", "hashed")));
            }
        } catch (MongoException e) {
            throw failure("reset the schema", e);
        }
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        int batchSize = documentsPerBatch(blobAt.apply(0).length);
        List<Document> batch = new ArrayList<>(batchSize);
        try {
            for (long i = 0; i < count; i++) {
                batch.add(document(recordAt.apply(i), blobAt.apply(i)));
                if (batch.size() == batchSize || i == count - 1) {
                    collection.insertMany(batch, new InsertManyOptions().ordered(false));
                    batch.clear();
                }
            }
        } catch (MongoException e) {
            throw failure("prefill " + count + " keys", e);
        }
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        try {
            Document found = collection.find(eq("_id", id)).first();
            return found == null ? Optional.empty() : Optional.of(decode(found));
        } catch (MongoException e) {
            throw failure("read " + id, e);
        }
    }

    private static StoredRecord decode(Document found) {
        SensorRecord record = new SensorRecord(
                found.getString("_id"),
                found.getInteger("int_1"),
                found.getInteger("int_2"),
                found.getInteger("int_3"),
                found.getDouble("double_1"),
                found.getDouble("double_2"),
                found.getDouble("double_3"));
        return new StoredRecord(record, found.get("payload", Binary.class).getData());
    }

    /** One find({_id: {$in: [...]}}) for the batch. */
    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        try {
            Map<String, StoredRecord> found = new HashMap<>();
            for (Document document : collection.find(in("_id", ids))) {
                StoredRecord stored = decode(document);
                found.put(stored.record().id(), stored);
            }
            return found;
        } catch (MongoException e) {
            throw failure("read a batch of " + ids.size() + " keys", e);
        }
    }

    /**
     * One unordered bulkWrite of the batch's inserts and replacements (a collection's bulkWrite: the
     * client-level bulkWrite of MongoDB 8 is not one the emulator takes); an update that matched no
     * document fails the batch, as a single update would.
     */
    @Override
    public void writeAll(List<Write> writes) {
        List<WriteModel<Document>> models = new ArrayList<>();
        long updates = 0;
        long upserts = 0;
        for (Write write : writes) {
            Document document = document(write.record(), write.blob());
            if (write.insert() && upsertInserts) {
                models.add(new ReplaceOneModel<>(eq("_id", write.record().id()), document, UPSERT));
                upserts++;
            } else if (write.insert()) {
                models.add(new InsertOneModel<>(document));
            } else {
                models.add(new ReplaceOneModel<>(eq("_id", write.record().id()), document));
                updates++;
            }
        }
        BulkWriteResult result;
        try {
            result = collection.bulkWrite(models, new BulkWriteOptions().ordered(false));
        } catch (MongoException e) {
            throw failure("write a batch of " + writes.size() + " records", e);
        }
        // an upserted insert either matched its replayed document or inserted one; an update must match
        long matchedUpdates = result.wasAcknowledged()
                ? result.getMatchedCount() + result.getUpserts().size() - upserts
                : updates;
        if (matchedUpdates != updates) {
            throw new DatabaseException(
                    "mongodb: the updates of a batch matched " + matchedUpdates + " documents, expected " + updates);
        }
    }

    /** An insert becomes a replacement that inserts where no document has the id. */
    @Override
    public boolean upsertInserts() {
        upsertInserts = true;
        return true;
    }

    @Override
    public void insert(SensorRecord record, byte[] blob) {
        try {
            if (upsertInserts) {
                collection.replaceOne(eq("_id", record.id()), document(record, blob), UPSERT);
            } else {
                collection.insertOne(document(record, blob));
            }
        } catch (MongoException e) {
            throw failure("insert " + record.id(), e);
        }
    }

    @Override
    public void update(SensorRecord record, byte[] blob) {
        UpdateResult result;
        try {
            result = collection.replaceOne(eq("_id", record.id()), document(record, blob));
        } catch (MongoException e) {
            throw failure("update " + record.id(), e);
        }
        if (result.wasAcknowledged() && result.getMatchedCount() != 1) {
            throw new DatabaseException("mongodb: update of " + record.id() + " matched " + result.getMatchedCount()
                    + " documents, expected 1");
        }
    }

    private static Document document(SensorRecord r, byte[] blob) {
        return new Document("_id", r.id())
                .append("int_1", r.int1())
                .append("int_2", r.int2())
                .append("int_3", r.int3())
                .append("double_1", r.double1())
                .append("double_2", r.double2())
                .append("double_3", r.double3())
                .append("payload", new Binary(blob));
    }

    /*
     * Servers older than 4.4 (wire version < 9), and the suite's emulator (mongo-java-server speaks
     * wire version 8), lack $binarySize. The emulator also materialises every matching document of a
     * query or aggregation in memory (countDocuments included), which exhausts its heap after a few
     * GB of 100 KB BLOBs; a projection, though, is applied before it collects. So on those servers
     * the verification reads ids only, then the BLOBs by id, a few MB at a time.
     */
    @Override
    public long countRows() {
        try {
            if (beforeMongoDb44) {
                long count = 0;
                for (Document ignored : allIds()) {
                    count++;
                }
                return count;
            }
            return collection.countDocuments();
        } catch (MongoException e) {
            throw failure("count documents", e);
        }
    }

    @Override
    public long countBlobsNotOfLength(int length) {
        try {
            if (beforeMongoDb44) {
                List<Object> ids = allIds().map(document -> document.get("_id")).into(new ArrayList<>());
                int batch = documentsPerBatch(length);
                long wrong = 0;
                for (int from = 0; from < ids.size(); from += batch) {
                    List<Object> some = ids.subList(from, Math.min(ids.size(), from + batch));
                    for (Document found : collection.find(in("_id", some)).projection(Projections.include("payload"))) {
                        if (found.get("payload", Binary.class).length() != length) {
                            wrong++;
                        }
                    }
                }
                return wrong;
            }
            Document counted = collection
                    .aggregate(List.of(
                            new Document(
                                    "$match",
                                    new Document(
                                            "$expr",
                                            new Document(
                                                    "$ne", List.of(new Document("$binarySize", "$payload"), length)))),
                            new Document("$count", "wrong")))
                    .first();
            return counted == null ? 0 : counted.getInteger("wrong");
        } catch (MongoException e) {
            throw failure("check the BLOB lengths", e);
        }
    }

    /** Batches of a few MB: large enough to amortise round trips, small enough for any heap. */
    private static int documentsPerBatch(int blobLength) {
        return (int) Math.max(1, Math.min(BATCH_DOCUMENTS, BATCH_BYTES / Math.max(1, blobLength)));
    }

    private FindIterable<Document> allIds() {
        return collection.find().projection(Projections.include("_id")).batchSize(10_000);
    }

    /** fsync flushes every pending write to disk (an emulator may not know the command: then nothing is settled). */
    @Override
    public String settle() {
        try {
            client.getDatabase("admin").runCommand(new Document("fsync", 1));
            return "fsync";
        } catch (MongoException e) {
            return "nothing settled: the server refused fsync (" + e.getMessage() + ")";
        }
    }

    /** The write concern this connector writes with. */
    @Override
    public Map<String, String> durabilitySettings() {
        return Map.of(
                "writeConcern",
                writeConcernName + " "
                        + collection.getWriteConcern().asDocument().toJson());
    }

    @Override
    public String serverVersion() {
        return genuineMongoDb
                ? "MongoDB " + reportedVersion
                : "a MongoDB wire-protocol emulator, not MongoDB (it reports " + reportedVersion
                        + ", without a gitVersion)";
    }

    @Override
    public String serverCaveat() {
        return genuineMongoDb
                ? null
                : "MONGODB EMULATOR: this 'mongodb' server is a wire-protocol emulator, not MongoDB; "
                        + "its numbers say nothing about MongoDB";
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    private static DatabaseException failure(String what, MongoException e) {
        return new DatabaseException("mongodb: could not " + what + ": " + DatabaseException.firstLine(e), e);
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "mongodb";
        }

        @Override
        public int order() {
            return 30;
        }

        @Override
        public boolean inStudy() {
            return true;
        }

        @Override
        public Database create() {
            return new MongoDbDatabase();
        }

        @Override
        public List<String> settingNames() {
            // the user goes in the mongodb:// URI; its password too, which the runner passes on as "password"
            return List.of("url", "password", "database", "table", "shard", "writeConcern");
        }

        @Override
        public void checkSettings(DatabaseSettings settings) {
            writeConcern(settings.get("writeConcern", "acknowledged"));
            String shard = settings.get("shard", "false");
            if (!shard.equals("true") && !shard.equals("false")) {
                throw new DatabaseException("mongodb: shard '" + shard + "' must be true or false");
            }
        }
    }
}
