package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.capstream.cli.CapstreamMain;
import io.capstream.schemas.artifact.ArtifactJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, "no contention from capstream's own parts while requests are in flight": with the
 * embedded broker and deferred delivery (the default {@code run}), neither the broker nor Kafka
 * Streams exists while the target serves a request; they start after the last request and the
 * report still comes. The target looks at this JVM's live threads each time a request arrives.
 * Before the change, the broker's and Streams' threads were there for every request.
 */
class RunKafkaAtEndIT {
    /** Threads of the embedded broker (network, raft, controller) and of Kafka Streams. */
    private static final Pattern KAFKA_THREADS =
            Pattern.compile("data-plane-kafka.*|kafka-\\d+-raft-io.*|quorum-controller.*|.*-StreamThread-\\d+");

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private PrintStream oldOut;
    private PrintStream oldErr;
    private HttpServer target;
    private final List<Set<String>> threadsAtRequests = new CopyOnWriteArrayList<>();
    private Set<String> before;

    @BeforeEach
    void start() throws IOException {
        oldOut = System.out;
        oldErr = System.err;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        target = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        target.createContext("/v1/chat/completions", ex -> {
            ex.getRequestBody().readAllBytes();
            threadsAtRequests.add(kafkaThreads());
            byte[] body = ("data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n"
                    + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n"
                    + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"b\"},\"finish_reason\":\"stop\"}]}\n\n"
                    + "data: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/event-stream");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        target.start();
        before = kafkaThreads();
    }

    @AfterEach
    void stop() {
        target.stop(0);
        System.setOut(oldOut);
        System.setErr(oldErr);
        oldErr.print(errBytes.toString(StandardCharsets.UTF_8));
    }

    /** @return names of live broker and Streams threads that were not there before the test's run */
    private Set<String> kafkaThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> KAFKA_THREADS.matcher(n).matches())
                .filter(n -> before == null || !before.contains(n))
                .collect(Collectors.toSet());
    }

    private int run(String delivery, Path report) {
        return CapstreamMain.execute("run", "--base-url", "http://127.0.0.1:" + target.getAddress().getPort() + "/v1",
                "--model", "m", "--requests", "6", "--concurrency", "2", "--ctx-tokens", "256", "--max-tokens", "2",
                "--max-model-len", "4096", "--client-warmup", "0", "--event-delivery", delivery,
                "--output", report.toString());
    }

    @Test
    @Timeout(180)
    void noBrokerOrStreamsThreadRunsWhileRequestsAreServedAndTheReportStillComes() throws Exception {
        Path report = tmp.resolve("report.json");
        assertEquals(0, run("auto", report), errBytes.toString(StandardCharsets.UTF_8));
        assertEquals(6, threadsAtRequests.size());
        for (Set<String> t : threadsAtRequests) {
            assertEquals(Set.of(), t, "Kafka threads while a request was served");
        }
        JsonNode a = ArtifactJson.read(report);
        assertEquals(6, a.path("completed").asInt());
        assertEquals("deferred", a.path("capstream").path("client").path("event_delivery").asText());
        String err = errBytes.toString(StandardCharsets.UTF_8);
        assertTrue(err.indexOf("start after the last request") < err.indexOf("embedded Kafka at"), err);
    }

    @Test
    @Timeout(180)
    void withLiveDeliveryTheBrokerAndStreamsRunDuringTheRequests() throws Exception {
        // the control: the thread check does see the broker and Streams when they run
        Path report = tmp.resolve("live.json");
        assertEquals(0, run("live", report), errBytes.toString(StandardCharsets.UTF_8));
        assertThat(threadsAtRequests).isNotEmpty();
        for (Set<String> t : threadsAtRequests) {
            assertThat(t).as("broker threads: " + t).anyMatch(n -> n.startsWith("data-plane-kafka"));
            assertThat(t).as("Streams threads: " + t).anyMatch(n -> n.contains("-StreamThread-"));
        }
        assertEquals(6, ArtifactJson.read(report).path("completed").asInt());
    }
}
