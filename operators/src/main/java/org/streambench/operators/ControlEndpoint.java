package org.streambench.operators;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A worker's HTTP endpoint, which the runner and Prometheus call:
 * <ul>
 * <li>{@code GET /metrics}: Prometheus text format.</li>
 * <li>{@code POST /start}: the database is ready; generators of a job started with {@code awaitStart} begin.</li>
 * <li>{@code POST /measure}: the warm-up is over; start the latency window.</li>
 * <li>{@code POST /stop}: close the latency window; generators stop, the job drains and ends.</li>
 * </ul>
 */
final class ControlEndpoint implements AutoCloseable {

    /** What the endpoint's paths do: the worker's. */
    interface Actions {
        String scrape();

        void start();

        void measure();

        void stop();
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final String url;

    private ControlEndpoint(HttpServer server, ExecutorService executor, String url) {
        this.server = server;
        this.executor = executor;
        this.url = url;
    }

    /** Serves {@code actions} on {@code bindHost:port} (0: a free port), on one daemon thread. */
    static ControlEndpoint start(String bindHost, int port, Actions actions) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(bindHost, port), 16);
        server.createContext(
                JobProtocol.METRICS_PATH,
                exchange -> respond(exchange, "GET", actions::scrape, "text/plain; version=0.0.4; charset=utf-8"));
        server.createContext(
                JobProtocol.START_PATH,
                exchange -> respond(exchange, "POST", () -> {
                    actions.start();
                    return "started\n";
                }));
        server.createContext(
                JobProtocol.MEASURE_PATH,
                exchange -> respond(exchange, "POST", () -> {
                    actions.measure();
                    return "measuring\n";
                }));
        server.createContext(
                JobProtocol.STOP_PATH,
                exchange -> respond(exchange, "POST", () -> {
                    actions.stop();
                    return "stopping\n";
                }));
        ExecutorService executor = Executors.newSingleThreadExecutor(JobRuntime.daemon("streambench-metrics-http"));
        server.setExecutor(executor);
        server.start();
        return new ControlEndpoint(
                server,
                executor,
                "http://" + advertisedHost(bindHost) + ":" + server.getAddress().getPort());
    }

    /** The endpoint's address as others reach it, e.g. {@code http://127.0.0.1:9249}. */
    String url() {
        return url;
    }

    /**
     * The address others reach an endpoint bound to {@code bindHost} by: a wildcard bind (a worker
     * in a YARN container on another machine) is reached by this machine's name, not by 0.0.0.0.
     */
    static String advertisedHost(String bindHost) {
        try {
            if (!InetAddress.getByName(bindHost).isAnyLocalAddress()) {
                return bindHost;
            }
            String name = InetAddress.getLocalHost().getCanonicalHostName();
            return name.contains(":") ? "[" + name + "]" : name;
        } catch (UnknownHostException e) {
            return bindHost;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static void respond(HttpExchange exchange, String method, Supplier<String> body) throws IOException {
        respond(exchange, method, body, "text/plain");
    }

    private static void respond(HttpExchange exchange, String method, Supplier<String> body, String contentType)
            throws IOException {
        try (exchange) {
            if (!method.equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
