package io.capstream.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.serde.AvroWireFormat;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP client against a scripted in-JVM server: endpoints, caching, retries, auth and errors. */
class HttpSchemaRegistryClientTest {
    private static final Schema THING = SchemaBuilder.record("Thing").namespace("t").fields().requiredString("id").endRecord();
    private static final RegistryClientConfig FAST = new RegistryClientConfig(Duration.ofSeconds(2), 3, Duration.ofMillis(10), null, null);
    private final ObjectMapper json = new ObjectMapper();
    private StubRegistryServer server;

    @BeforeEach
    void start() throws Exception {
        server = new StubRegistryServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void registerPostsTheSchemaAndCachesTheId() throws Exception {
        server.respond(200, "{\"id\":21}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url() + "/apis/ccompat/v7/", FAST);
        assertEquals(21, c.register("capstream.events-value", THING));
        assertEquals(21, c.register("capstream.events-value", THING), "second call served from cache");
        assertEquals(THING, c.getById(21), "registered schema cached by id");
        assertEquals(1, server.requests().size());
        StubRegistryServer.Request r = server.requests().get(0);
        assertEquals("POST", r.method());
        assertEquals("/apis/ccompat/v7/subjects/capstream.events-value/versions", r.uri());
        assertEquals("application/vnd.schemaregistry.v1+json", r.header("Content-Type"));
        assertThat(r.header("Accept")).startsWith("application/vnd.schemaregistry.v1+json");
        assertEquals(THING, new Schema.Parser().parse(json.readTree(r.body()).get("schema").asText()));
        assertNull(r.header("Authorization"));
    }

    @Test
    void getByIdParsesAndCaches() {
        server.respond(200, json.createObjectNode().put("schema", THING.toString()).toString());
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        assertEquals(THING, c.getById(5));
        assertEquals(THING, c.getById(5));
        assertEquals(1, server.requests().size());
        assertEquals("/schemas/ids/5", server.requests().get(0).uri());
    }

    @Test
    void getIdLooksUpWithoutRegistering() throws Exception {
        server.respond(200, "{\"subject\":\"s\",\"id\":3,\"version\":1,\"schema\":\"\\\"string\\\"\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        assertEquals(3, c.getId("my subject/x", THING));
        assertEquals("POST", server.requests().get(0).method());
        assertEquals("/subjects/my%20subject%2Fx", server.requests().get(0).uri());
    }

    @Test
    void retriesOn5xxWithBackoffThenSucceeds() {
        server.respond(503, "{\"error_code\":50003,\"message\":\"busy\"}")
              .respond(500, "oops")
              .respond(200, "{\"id\":7}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        assertEquals(7, c.register("s", THING));
        assertEquals(3, server.requests().size());
    }

    @Test
    void givesUpAfterMaxRetriesWithTheLastError() {
        server.respond(502, "{\"error_code\":50002,\"message\":\"bad gateway\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> c.register("s", THING));
        assertEquals(4, server.requests().size(), "1 try + 3 retries");
        assertEquals(502, e.status());
        assertEquals(50002, e.errorCode());
        assertThat(e.getMessage()).contains("bad gateway", "after 4 attempts");
    }

    /**
     * Two generators started together on a fresh registry: the later registration of the subject's first version
     * was refused with 409 "already exists" (Apicurio) and that generator failed (exit 1); the schema is registered,
     * so its id is looked up (failed before: the 409 was thrown).
     */
    @Test
    void aRegistrationRefusedBecauseAnotherClientJustRegisteredItTakesTheRegisteredId() {
        server.respond(409, "{\"error_code\":409,\"message\":\"An artifact with ID 'capstream.events-value' in group"
                + " 'default' already exists.\"}").respond(200, "{\"subject\":\"capstream.events-value\",\"version\":1,"
                + "\"id\":7,\"schema\":\"{}\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        assertThat(c.register("capstream.events-value", THING)).as("id after the 409").isEqualTo(7);
        assertThat(server.requests()).as("requests").extracting(StubRegistryServer.Request::uri)
                .containsExactly("/subjects/capstream.events-value/versions", "/subjects/capstream.events-value");
    }

    @Test
    void doesNotRetry4xxAndNamesSubjectStatusAndRegistryMessage() {
        server.respond(409, "{\"error_code\":409,\"message\":\"Schema being registered is incompatible with an earlier schema\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> c.register("capstream.events-value", THING));
        assertThat(server.requests()).as("the registration, then the lookup that finds the schema not registered")
                .extracting(StubRegistryServer.Request::uri)
                .containsExactly("/subjects/capstream.events-value/versions", "/subjects/capstream.events-value");
        assertEquals(409, e.status());
        assertEquals(409, e.errorCode());
        assertThat(e.getMessage()).contains("'capstream.events-value'");
        assertThat(e.getMessage()).contains("HTTP 409");
        assertThat(e.getMessage()).contains("incompatible with an earlier schema");
    }

    @Test
    void unknownIdIs404WithoutRetry() {
        server.respond(404, "{\"error_code\":40403,\"message\":\"Schema 99 not found\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> c.getById(99));
        assertEquals(1, server.requests().size());
        assertEquals(40403, e.errorCode());
        assertThat(e.getMessage()).contains("Schema 99 not found");
    }

    @Test
    void retriesConnectionErrorsAndReportsThem() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create("http://127.0.0.1:" + closedPort,
                new RegistryClientConfig(Duration.ofSeconds(2), 2, Duration.ofMillis(5), null, null));
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> c.getById(1));
        assertEquals(-1, e.status());
        assertThat(e.getMessage()).contains("ConnectException", "after 3 attempts");
    }

    @Test
    void noAnswerIsUnavailableButAnAnswerIsNot() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        RegistryClientConfig once = FAST.withMaxRetries(0).withRequestTimeout(Duration.ofSeconds(10));
        // only the hanging server's case waits for the timeout: the answers get time enough on a loaded machine
        // (a 503 that took more than 300 ms to arrive was "no answer", status -1, under load)
        RegistryClientConfig onceShort = once.withRequestTimeout(Duration.ofMillis(300));
        SchemaRegistryException refused = assertThrows(SchemaRegistryException.class,
                () -> HttpSchemaRegistryClient.create("http://127.0.0.1:" + closedPort, once).getById(1));
        assertTrue(refused instanceof SchemaRegistryUnavailableException, "connection refused: " + refused);

        server.respond(503, "{\"error_code\":50301,\"message\":\"starting\"}");
        SchemaRegistryException busy = assertThrows(SchemaRegistryException.class,
                () -> HttpSchemaRegistryClient.create(server.url(), once).getById(2));
        assertTrue(busy instanceof SchemaRegistryUnavailableException, "HTTP 503: " + busy);
        assertEquals(503, busy.status());
        assertThat(busy.getMessage()).contains("after 1 attempt)");

        StubRegistryServer hanging = new StubRegistryServer().hang();
        try {
            SchemaRegistryException timeout = assertThrows(SchemaRegistryException.class,
                    () -> HttpSchemaRegistryClient.create(hanging.url(), onceShort).getById(3));
            assertTrue(timeout instanceof SchemaRegistryUnavailableException, "timeout: " + timeout);
        } finally {
            hanging.close();
        }

        for (int status : new int[] {404, 401}) {
            StubRegistryServer answering = new StubRegistryServer().respond(status, "{\"error_code\":" + status + "}");
            try {
                SchemaRegistryException e = assertThrows(SchemaRegistryException.class,
                        () -> HttpSchemaRegistryClient.create(answering.url(), once).getById(4));
                assertFalse(e instanceof SchemaRegistryUnavailableException, "HTTP " + status + " is an answer: " + e);
                assertEquals(status, e.status());
            } finally {
                answering.close();
            }
        }
        org.apache.kafka.common.errors.SerializationException wrapped =
                new org.apache.kafka.common.errors.SerializationException("cannot serialize", busy);
        assertEquals(busy, SchemaRegistryUnavailableException.in(wrapped), "found in a serde's exception");
        assertNull(SchemaRegistryUnavailableException.in(new IllegalStateException("x")));
    }

    @Test
    void listsSubjects() {
        server.respond(200, "[\"capstream.events-value\",\"capstream.reports-value\"]")
              .respond(200, "{\"not\":\"a list\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url() + "/apis/ccompat/v7", FAST);
        assertEquals(java.util.List.of("capstream.events-value", "capstream.reports-value"), c.subjects());
        assertEquals("/apis/ccompat/v7/subjects", server.requests().get(0).uri());
        assertEquals("GET", server.requests().get(0).method());
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, c::subjects);
        assertThat(e.getMessage()).contains("not a JSON array");
    }

    @Test
    void timesOutAndRetries() {
        server.hang().respond(200, "{\"id\":4}");
        // 1 s per attempt and 5 retries: the hang times out; an answer that itself misses the timeout on a loaded
        // machine (a CI failure at 300 ms and 1 retry, load 26) is retried and answered again
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(),
                new RegistryClientConfig(Duration.ofSeconds(1), 5, Duration.ofMillis(5), null, null));
        assertEquals(4, c.register("s", THING));
        assertThat(server.requests().size()).as("requests: the hung one, then the answered one(s)").isBetween(2, 6);
    }

    @Test
    void fallsOverToTheNextUrlOnConnectionErrors() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        server.respond(200, "{\"id\":8}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create("http://127.0.0.1:" + closedPort + "," + server.url(), FAST);
        assertEquals(8, c.register("s", THING));
    }

    @Test
    void basicAuthFromConfig() {
        server.respond(200, "{\"id\":1}");
        HttpSchemaRegistryClient.create(server.url(),
                new RegistryClientConfig(Duration.ofSeconds(2), 0, Duration.ofMillis(5), "alice:s3cr:et", null)).register("s", THING);
        assertEquals("Basic " + Base64.getEncoder().encodeToString("alice:s3cr:et".getBytes()),
                server.requests().get(0).header("Authorization"));
    }

    @Test
    void basicAuthFromUrlUserInfoIsNotSentInTheUrl() {
        server.respond(200, "{\"id\":1}");
        String url = server.url().replace("http://", "http://bob:p%40ss@");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(url, FAST);
        c.register("s", THING);
        assertEquals("Basic " + Base64.getEncoder().encodeToString("bob:p@ss".getBytes()),
                server.requests().get(0).header("Authorization"));
        assertThat(c.toString()).doesNotContain("p%40ss", "bob");
    }

    @Test
    void bearerToken() {
        server.respond(200, "{\"id\":1}");
        HttpSchemaRegistryClient.create(server.url(),
                new RegistryClientConfig(Duration.ofSeconds(2), 0, Duration.ofMillis(5), null, "tok-123")).register("s", THING);
        assertEquals("Bearer tok-123", server.requests().get(0).header("Authorization"));
    }

    @Test
    void unauthorizedIsAClearErrorWithoutRetry() {
        server.respond(401, "{\"error_code\":401,\"message\":\"Unauthorized\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> c.register("s", THING));
        assertEquals(401, e.status());
        assertEquals(1, server.requests().size());
        assertThat(e.getMessage()).contains("Unauthorized");
    }

    @Test
    void compatibilityCheck() throws Exception {
        server.respond(200, "{\"is_compatible\":false}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        assertFalse(c.testCompatibility("s", THING));
        StubRegistryServer.Request r = server.requests().get(0);
        assertEquals("POST", r.method());
        assertEquals("/compatibility/subjects/s/versions/latest", r.uri());
        assertEquals(THING.toString(), json.readTree(r.body()).get("schema").asText());
    }

    @Test
    void compatibilityOfANewSubjectIsTrue() {
        server.respond(404, "{\"error_code\":40401,\"message\":\"Subject 's' not found.\"}");
        assertTrue(HttpSchemaRegistryClient.create(server.url(), FAST).testCompatibility("s", THING));
    }

    @Test
    void readsSubjectAndGlobalCompatibility() {
        server.respond(200, "{\"compatibilityLevel\":\"FULL\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        assertEquals("FULL", c.getCompatibility("s"));
        assertEquals("GET", server.requests().get(0).method());
        assertEquals("/config/s?defaultToGlobal=true", server.requests().get(0).uri());
        assertEquals("FULL", c.getCompatibility(null));
        assertEquals("/config", server.requests().get(1).uri());
    }

    @Test
    void subjectWithoutOwnLevelFallsBackToGlobal() {
        server.respond(404, "{\"error_code\":40408,\"message\":\"Subject 's' does not have subject-level compatibility configured\"}")
              .respond(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
        assertEquals("BACKWARD", HttpSchemaRegistryClient.create(server.url(), FAST).getCompatibility("s"));
        assertEquals("/config", server.requests().get(1).uri());
    }

    @Test
    void setsSubjectAndGlobalCompatibility() throws Exception {
        server.respond(200, "{\"compatibility\":\"NONE\"}");
        HttpSchemaRegistryClient c = HttpSchemaRegistryClient.create(server.url(), FAST);
        c.setCompatibility("s", "NONE");
        c.setCompatibility(null, "BACKWARD_TRANSITIVE");
        assertEquals("PUT", server.requests().get(0).method());
        assertEquals("/config/s", server.requests().get(0).uri());
        assertEquals("NONE", json.readTree(server.requests().get(0).body()).get("compatibility").asText());
        assertEquals("/config", server.requests().get(1).uri());
        assertEquals("BACKWARD_TRANSITIVE", json.readTree(server.requests().get(1).body()).get("compatibility").asText());
    }

    @Test
    void serdeWithoutAutoRegisterLooksUpTheId() throws Exception {
        server.respond(200, "{\"subject\":\"capstream.alerts-value\",\"id\":12,\"version\":1}");
        SpecificAvroSerde<SloBreach> serde = new SpecificAvroSerde<>(SloBreach.class);
        serde.configure(Map.of(SpecificAvroSerde.SCHEMA_REGISTRY_URL, server.url(),
                SpecificAvroSerde.AUTO_REGISTER, "false",
                RegistryClientConfig.BEARER_AUTH_TOKEN, "t0k"), false);
        SloBreach b = io.capstream.schemas.serde.RandomRecords.one(SloBreach.class, 11);
        byte[] bytes = serde.serializer().serialize("capstream.alerts", b);
        assertEquals(12, AvroWireFormat.schemaId(bytes));
        StubRegistryServer.Request r = server.requests().get(0);
        assertEquals("POST", r.method());
        assertEquals("/subjects/capstream.alerts-value", r.uri());
        assertEquals("Bearer t0k", r.header("Authorization"));
        assertEquals(SloBreach.getClassSchema(), new Schema.Parser().parse(json.readTree(r.body()).get("schema").asText()));
    }

    @Test
    void rejectsNonHttpUrls() {
        assertThrows(IllegalArgumentException.class, () -> HttpSchemaRegistryClient.create("ftp://x", FAST));
        assertThrows(IllegalArgumentException.class, () -> SchemaRegistryClients.forUrl("localhost:8081", FAST));
    }

    @Test
    void configFromProperties() {
        RegistryClientConfig c = RegistryClientConfig.fromProperties(Map.of(
                RegistryClientConfig.BASIC_AUTH_USER_INFO, "u:p", RegistryClientConfig.REQUEST_TIMEOUT_MS, 1500,
                RegistryClientConfig.MAX_RETRIES, "5", RegistryClientConfig.RETRY_BACKOFF_MS, "50"));
        assertEquals(new RegistryClientConfig(Duration.ofMillis(1500), 5, Duration.ofMillis(50), "u:p", null), c);
        assertThat(c.toString()).doesNotContain("u:p");
        assertEquals(RegistryClientConfig.defaults(), RegistryClientConfig.fromProperties(Map.of()));
    }
}
