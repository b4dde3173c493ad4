package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issue 33: the correlation headers of each request. */
class TraceHeadersTest {
    @Test
    void eachRequestGetsAW3cTraceparentAndARunScopedRequestId() {
        TraceHeaders.Ids ids = TraceHeaders.next("benchmark-20261205T141500Z", 17, new Random(1));
        assertThat(ids.requestId()).as("X-Request-Id").isEqualTo("benchmark-20261205T141500Z-17");
        assertThat(ids.traceparent()).as("traceparent").matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
        assertThat(ids.traceparent()).as("traceparent holds the trace id").contains(ids.traceId());
        Map<String, String> h = ids.headers();
        assertThat(h).as("headers sent").containsOnlyKeys("traceparent", "X-Request-Id");
        assertThat(h.get("X-Request-Id")).as("X-Request-Id header").isEqualTo(ids.requestId());
    }

    @Test
    void traceAndParentIdsAreRandomPerRequestAndNeverAllZero() {
        Random r = new Random(7);
        Set<String> traces = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            traces.add(TraceHeaders.next("run", i, r).traceId());
        }
        assertThat(traces).as("distinct trace ids of 1000 requests").hasSize(1000);
        Random zeros = new Random() {
            private int calls;

            @Override
            public void nextBytes(byte[] bytes) {
                java.util.Arrays.fill(bytes, (byte) (calls++ == 0 ? 0 : 0x5a));
            }
        };
        assertThat(TraceHeaders.hex(zeros, 8)).as("an all-zero draw is drawn again (invalid in W3C)")
                .isEqualTo("5a5a5a5a5a5a5a5a");
    }

    @Test
    void offSendsNoneAndAUserHeaderOfTheSameNameReplacesCapstreams() {
        assertThat(TraceHeaders.sentNames(false, List.of())).as("--no-trace-headers").isEmpty();
        assertThat(TraceHeaders.sentNames(true, List.of())).as("default").containsExactly("traceparent",
                "X-Request-Id");
        assertThat(TraceHeaders.sentNames(true, List.of("x-request-id"))).as("with -H x-request-id: mine")
                .containsExactly("traceparent");
        TraceHeaders.Ids kept = TraceHeaders.next("run", 3, new Random(2)).keep(List.of("traceparent"));
        assertThat(kept.requestId()).as("request id not sent, not recorded").isNull();
        assertThat(kept.headers()).as("headers sent").containsOnlyKeys("traceparent");
    }
}
