package org.streambench.operators;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import org.streambench.db.Database;
import org.streambench.db.StoredRecord;

/**
 * async:K for a connector whose driver has no asynchronous calls (JDBC): K connections of the
 * operator's own, each lent to one call at a time on a thread of a K-thread pool, so up to K calls
 * overlap. (A connector with asynchronous calls overlaps them on its one connection instead.)
 */
final class AsyncSessions implements AutoCloseable {

    private final List<Database> all = new ArrayList<>();
    private final BlockingQueue<Database> idle = new LinkedBlockingQueue<>();
    private final ExecutorService threads;

    private AsyncSessions(int size) {
        threads = Executors.newFixedThreadPool(size, runnable -> {
            Thread thread = new Thread(runnable, "streambench-async-call");
            thread.setDaemon(true);
            return thread;
        });
    }

    static AsyncSessions open(ExperimentSpec spec, int size) {
        AsyncSessions sessions = new AsyncSessions(size);
        try {
            for (int i = 0; i < size; i++) {
                Database database = ProcessingOperator.openSession(spec);
                sessions.all.add(database);
                sessions.idle.add(database);
            }
        } catch (RuntimeException e) {
            sessions.close();
            throw e;
        }
        return sessions;
    }

    CompletableFuture<Optional<StoredRecord>> read(String id) {
        return call(database -> database.read(id));
    }

    CompletableFuture<Void> write(Database.Write write) {
        return call(database -> {
            database.writeAll(List.of(write));
            return null;
        });
    }

    private <T> CompletableFuture<T> call(Function<Database, T> call) {
        return CompletableFuture.supplyAsync(
                () -> {
                    Database database = idle.poll();
                    try {
                        return call.apply(database);
                    } finally {
                        idle.add(database);
                    }
                },
                threads);
    }

    @Override
    public void close() {
        threads.shutdownNow();
        all.forEach(Database::close);
    }
}
