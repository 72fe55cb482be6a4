package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;

/**
 * The endpoint a worker reports (to the runner and so to Prometheus) is one others can reach: a
 * worker bound to every interface, as on a cluster's machines, names its machine, not 0.0.0.0.
 */
class WorkerEndpointTest {

    @Test
    void aWorkerBoundToEveryInterfaceAdvertisesItsMachinesName() throws Exception {
        Advertised advertised = workerBoundTo("0.0.0.0");
        assertNotEquals(
                "0.0.0.0",
                advertised.endpoint().getHost(),
                advertised.endpoint().toString());
        assertEquals(200, advertised.metricsStatus(), "the advertised " + advertised.endpoint() + " answers");
    }

    @Test
    void aWorkerBoundToOneAddressAdvertisesThatAddress() throws Exception {
        Advertised advertised = workerBoundTo("127.0.0.1");
        assertEquals("127.0.0.1", advertised.endpoint().getHost());
        assertEquals(200, advertised.metricsStatus());
    }

    private record Advertised(URI endpoint, int metricsStatus) {}

    private static Advertised workerBoundTo(String metricsHost) throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .keys(10)
                .seed(7)
                .runToken(3)
                .metricsHost(metricsHost)
                .build();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            URI endpoint = URI.create(runtime.status().endpoint());
            return new Advertised(endpoint, metricsStatus(endpoint));
        }
    }

    private static int metricsStatus(URI endpoint) throws Exception {
        HttpResponse<Void> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(endpoint.resolve(JobProtocol.METRICS_PATH))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        return response.statusCode();
    }
}
