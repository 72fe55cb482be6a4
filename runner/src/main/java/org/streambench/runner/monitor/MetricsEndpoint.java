package org.streambench.runner.monitor;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * A registry's metrics served by the runner on 127.0.0.1 (a free port) and listed in
 * {@link ScrapeTargets} with {@code labels} until closed.
 */
final class MetricsEndpoint implements AutoCloseable {

    private final HttpServer server;
    private final ScrapeTargets.Registration target;

    MetricsEndpoint(Path work, PrometheusMeterRegistry registry, Map<String, String> labels) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        server.createContext("/metrics", exchange -> {
            byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        target = new ScrapeTargets(work).add(ProcessHandle.current(), "127.0.0.1", port(), labels);
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        target.close();
        server.stop(0);
    }
}
