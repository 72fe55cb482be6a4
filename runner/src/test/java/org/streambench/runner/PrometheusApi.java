package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.streambench.local.Home;

/** A Prometheus's HTTP API as the tests query it, and a dashboard's panel queries as Grafana sends them. */
final class PrometheusApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String url;

    PrometheusApi(String url) {
        this.url = url;
    }

    /** An instant query's result: one element per series. */
    JsonNode query(String promql) throws IOException, InterruptedException {
        return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                .get("data")
                .get("result");
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(url + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    interface Query {
        JsonNode run() throws Exception;
    }

    static JsonNode await(String what, Query query, Predicate<JsonNode> done, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = query.run();
        while (!done.test(last)) {
            assertTrue(System.nanoTime() < deadline, what + ": not within " + timeout + ": " + last);
            Thread.sleep(250);
            last = query.run();
        }
        return last;
    }

    /**
     * Every query of every panel of {@code dashboard} (a file in grafana/dashboards), each template
     * variable set to {@code values} (a run's value, or ".*" as Grafana's "All" sends it) and
     * Grafana's {@code $__rate_interval} to what it is for a 1 s scrape interval.
     */
    static List<String> panelQueries(String dashboard, Map<String, String> values) throws IOException {
        List<String> queries = new ArrayList<>();
        Path file = Home.root().resolve("grafana").resolve("dashboards").resolve(dashboard);
        for (JsonNode panel : JSON.readTree(file.toFile()).get("panels")) {
            for (JsonNode target : panel.get("targets")) {
                String query = target.get("expr").asText().replace("$__rate_interval", "4s");
                for (Map.Entry<String, String> value : values.entrySet()) {
                    query = query.replace("$" + value.getKey(), value.getValue());
                }
                assertFalse(query.contains("$"), "a variable this test does not set: " + query);
                queries.add(query);
            }
        }
        return queries;
    }
}
