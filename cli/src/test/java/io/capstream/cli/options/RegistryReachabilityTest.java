package io.capstream.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.sun.net.httpserver.HttpServer;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The registry pre-check of the generators against a scripted registry and a closed port. */
class RegistryReachabilityTest {
    private static final RegistryClientConfig CLIENT = RegistryClientConfig.defaults();
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;

    /** Starts a registry answering GET /subjects with {@code status} and {@code body} (status 0: never answers). */
    private String registry(int status, String body) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "registry-reachability-test");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", ex -> {
            seen.add(ex.getRequestMethod() + " " + ex.getRequestURI() + " " + ex.getRequestHeaders().getFirst("Authorization"));
            if (status == 0) {
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ex.close();
                return;
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(status, bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.stop(0);
        }
    }

    private static String closedUrl() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    @Test
    void mockAndAbsentRegistriesAreNotChecked() {
        assertNull(RegistryReachability.check(null, CLIENT));
        assertNull(RegistryReachability.check("mock://capstream", CLIENT));
    }

    @Test
    void anAnsweringRegistryPassesWithTheCredentials() throws Exception {
        String url = registry(200, "[\"capstream.events-value\"]");
        RegistryClientConfig auth = new RegistryClientConfig(Duration.ofSeconds(5), 3, Duration.ofMillis(10), "u:p", null);
        assertNull(RegistryReachability.check(url + "/apis/ccompat/v7", auth));
        assertEquals(List.of("GET /apis/ccompat/v7/subjects Basic dTpw"), seen, "one GET /subjects, with basic auth");
    }

    @Test
    @Timeout(10)
    void aClosedPortIsOneLineNamingTheRegistry() throws Exception {
        String url = closedUrl();
        assertEquals("cannot reach the schema registry at " + url + ": connection refused (is it running, and is the URL"
                + " right?)", RegistryReachability.check(url, CLIENT));
    }

    @Test
    void aRegistryThatDoesNotAnswerInTimeFails() throws Exception {
        String url = registry(0, "");
        String message = RegistryReachability.check(url, CLIENT, Duration.ofMillis(300));
        assertEquals("cannot reach the schema registry at " + url + ": no answer within 1 s (is it running, and is the"
                + " URL right?)", message);
        assertEquals(1, seen.size(), "one attempt");
    }

    @Test
    void errorAnswersFailWithTheStatusAndAHint() throws Exception {
        String url = registry(503, "{\"error_code\":50301,\"message\":\"starting\"}");
        assertEquals("cannot reach the schema registry at " + url + ": GET /subjects answered HTTP 503 (error_code 50301):"
                + " starting", RegistryReachability.check(url, CLIENT));
        assertEquals(1, seen.size(), "no retries: a pre-check, not a call to wait out");
    }

    @Test
    void unauthorizedNamesTheCredentialOptionsAndHidesTheUrlPassword() throws Exception {
        String url = registry(401, "{\"error_code\":401,\"message\":\"Unauthorized\"}");
        String withPassword = url.replace("http://", "http://user:secret@");
        String message = RegistryReachability.check(withPassword, CLIENT);
        assertEquals("cannot reach the schema registry at " + url.replace("http://", "http://***@")
                + ": GET /subjects answered HTTP 401 (error_code 401): Unauthorized (check --schema-registry-basic-auth"
                + " / --schema-registry-bearer-token)", message);
    }

    @Test
    void aPortOpenToSomethingElseIsNotARegistry() throws Exception {
        String url = registry(404, "Not Found");
        String message = RegistryReachability.check(url, CLIENT);
        assertThat(message).startsWith("cannot reach the schema registry at " + url + ": GET /subjects answered HTTP 404: Not Found"
                + " (is the URL the registry's API root");
    }

    @Test
    void theSharedTestRegistryAnswersTheCheck() throws Exception {
        try (io.capstream.schemas.registry.AuthRegistryStub stub = new io.capstream.schemas.registry.AuthRegistryStub("u:p")) {
            RegistryClientConfig auth = new RegistryClientConfig(Duration.ofSeconds(5), 3, Duration.ofMillis(10), "u:p", null);
            assertNull(RegistryReachability.check(stub.url(), auth));
            assertThat(RegistryReachability.check(stub.url(), CLIENT)).as("without the credentials")
                    .contains("HTTP 401");
            assertEquals("/subjects", stub.requests().get(0).path());
        }
    }

    @Test
    void severalUrlsPassWhenOneAnswers() throws Exception {
        String url = registry(200, "[]");
        assertNull(RegistryReachability.check(closedUrl() + "," + url, CLIENT));
        assertEquals(1, seen.size());
    }
}
