package io.capstream.loadgen.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.emit.InMemoryEventSink;
import io.capstream.loadgen.sim.SimConfig;
import io.capstream.loadgen.sim.SimEngine;
import io.capstream.schemas.avro.RequestCompleted;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The per-token gaps of a real stream: the simulated engine decodes each stream at 50 tokens/s on a 5 ms
 * tick (one token written every 20 ms), so the gaps the generator records must be about 20 ms, one per
 * token after the first, and add up to the stream's first-to-last-token time (the stream ends one decode
 * interval after its last token).
 */
class OutputChunkGapsSimTest {
    private Vertx vertx;
    private SimEngine sim;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = SimEngine.start(vertx, SimConfig.builder().ttftBaseMs(5).decodeTokPerS(5000).streamDecodeTokPerS(50)
                .tickMs(5).build()).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        sim.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void gapsFollowTheEnginesDecodeRateAndSumToTheStreamsLength() throws Exception {
        InMemoryEventSink sink = new InMemoryEventSink();
        RunConfig c = RunConfig.of(TargetConfig.of(sim.baseUrl(), SimConfig.defaults().modelId()))
                .withLoad(l -> l.withRequests(4).withConcurrency(2))
                .withRequest(r -> r.withMaxTokens(12).withCtxTokens(64).withSharedPrefixTokens(0).withMaxModelLen(4096));
        RunOutcome o = new LoadGenerator(vertx).run(c, sink, RunListener.NONE).get(60, TimeUnit.SECONDS);
        assertEquals(4, o.completed());
        List<Integer> all = new ArrayList<>();
        for (RequestCompleted r : sink.payloads(RequestCompleted.class)) {
            List<Integer> gaps = r.getOutputChunkGapsUs();
            assertEquals(r.getContentChunks() - 1, gaps.size(), "one gap per output chunk after the first");
            assertEquals(11, gaps.size(), "12 tokens, one chunk each");
            long sumUs = gaps.stream().mapToLong(Integer::longValue).sum();
            long streamUs = (r.getE2eNs() - r.getTtfoNs()) / 1_000;
            // the engine ends the stream (finish_reason, usage, [DONE]) on the tick after the last token, or in the
            // same read (one clock read per read: the end then has the last token's instant, and the gaps, each the
            // difference of two whole-µs instants, can add up to 1 µs more than the whole-µs stream length)
            assertTrue(sumUs <= streamUs + 1 && sumUs >= streamUs - 45_000,
                    "gaps " + sumUs + " µs within the first output to the end of the stream, " + streamUs + " µs");
            all.addAll(gaps);
        }
        Collections.sort(all);
        int median = all.get(all.size() / 2);
        assertTrue(median >= 15_000 && median <= 25_000, "50 tokens/s is a 20 ms gap, median " + median + " µs");
    }
}
