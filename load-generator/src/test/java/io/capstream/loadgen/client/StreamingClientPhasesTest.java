package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.loadgen.workload.ApiKey;
import io.capstream.loadgen.workload.ClientTls;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP phases and TLS against the built-in sim serving https with its self-signed certificate (issue 30): the
 * certificate is refused without {@code --insecure}/{@code --ca-cert}; a new connection has connect and TLS phases,
 * a kept-alive one none; the phases add up to the TTFT.
 */
class StreamingClientPhasesTest {
    static Vertx vertx;
    static SimEngine sim;
    static SimEngine plain;
    static final Buffer BODY = Buffer.buffer("{\"model\":\"capstream-sim\",\"stream\":true,\"max_tokens\":4,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],\"stream_options\":{\"include_usage\":true}}");

    @BeforeAll
    static void start() throws Exception {
        vertx = TimedTransport.vertx(new VertxOptions());
        sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(20).https(true).build()).await(30, TimeUnit.SECONDS);
        plain = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(20).build()).await(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        sim.close();
        plain.close();
        vertx.close().await(10, TimeUnit.SECONDS);
    }


    static RequestResult runOnLoop(StreamingClient client) throws Exception {
        io.vertx.core.Promise<RequestResult> p = io.vertx.core.Promise.promise();
        vertx.runOnContext(v -> client.execute(BODY).onComplete(p));
        return p.future().await(60, TimeUnit.SECONDS);
    }

    static StreamingClient client(String base, boolean keepAlive, ClientTls tls) {
        return new StreamingClient(vertx, TestTransports.with(new ClientConfig(base, 30, keepAlive, 4, ApiKey.none())), tls);
    }

    static void assertAddsUp(RequestResult r) {
        HttpTimings p = r.phases();
        assertThat(p).as("phases of %s", r).isNotNull();
        long sum = p.connectionNs() + p.sendingNs() + p.waitingNs() + p.firstChunkPhaseNs() + p.firstContentNs(r.ttftNs());
        assertThat(sum).as("blocked+dns+connect+tls+sending+waiting+first chunk+first content of %s", p)
                .isEqualTo(r.ttftNs());
        assertThat(java.util.List.of(p.blockedNs(), p.dnsNs(), p.connectNs(), p.tlsNs(), p.sendingNs(),
            p.waitingNs(), p.firstChunkPhaseNs(), p.firstContentNs(r.ttftNs()))).as("every phase of %s", p)
                .allMatch(v -> v >= 0);
    }

    @Test
    void selfSignedCertificateIsRefusedWithoutInsecureOrCaCert() throws Exception {
        try (StreamingClient client = client(sim.baseUrl(), false, ClientTls.DEFAULT)) {
            RequestResult r = runOnLoop(client);
            assertThat(r.error()).as("error of %s", r).isNotNull();
            assertThat(r.error().message()).as("error message")
                    .contains("CERTIFICATE_VERIFY_FAILED").contains("--ca-cert").contains("--insecure");
            assertThat(r.phases()).as("no connection was handed over").isNull();
        }
    }

    @Test
    void newConnectionsHaveConnectAndTlsPhases() throws Exception {
        try (StreamingClient client = client(sim.baseUrl(), false, new ClientTls(true, null))) {
            for (int i = 0; i < 3; i++) {
                RequestResult r = runOnLoop(client);
                assertThat(r.error()).as("error").isNull();
                assertAddsUp(r);
                assertThat(r.phases().connectionReused()).as("reused without keep-alive").isFalse();
                assertThat(r.phases().tlsNs()).as("TLS handshake of a new connection").isPositive();
                assertThat(r.phases().connectNs()).as("TCP connect of a new connection").isPositive();
                assertThat(r.phases().dnsNs()).as("DNS of an IP address").isZero();
            }
        }
    }

    @Test
    void keptAliveConnectionHasNoConnectOrTls() throws Exception {
        try (StreamingClient client = client(sim.baseUrl(), true, new ClientTls(true, null))) {
            RequestResult first = runOnLoop(client);
            RequestResult second = runOnLoop(client);
            assertAddsUp(first);
            assertAddsUp(second);
            assertThat(first.phases().connectionReused()).as("first request's connection reused").isFalse();
            assertThat(first.phases().tlsNs()).as("first request's TLS").isPositive();
            assertThat(second.phases().connectionReused()).as("second request's connection reused").isTrue();
            assertThat(new long[] {second.phases().dnsNs(), second.phases().connectNs(), second.phases().tlsNs()})
                    .as("dns, connect, tls of the reused connection").containsOnly(0L);
        }
    }

    @Test
    void caCertTrustsTheSimCertificateForLocalhost() throws Exception {
        String base = "https://localhost:" + sim.port() + "/v1";
        try (StreamingClient client = client(base, false, new ClientTls(false, Path.of(sim.certificatePath())))) {
            RequestResult r = runOnLoop(client);
            assertThat(r.error()).as("error").isNull();
            assertAddsUp(r);
            assertThat(r.phases().tlsNs()).as("TLS").isPositive();
        }
    }

    @Test
    void plainHttpHasNoTlsPhase() throws Exception {
        try (StreamingClient client = client(plain.baseUrl(), false, ClientTls.DEFAULT)) {
            RequestResult r = runOnLoop(client);
            assertThat(r.error()).as("error").isNull();
            assertAddsUp(r);
            assertThat(r.phases().tlsNs()).as("TLS of http").isZero();
            assertThat(r.phases().connectNs()).as("connect").isPositive();
        }
    }
}
