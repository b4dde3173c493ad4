package io.capstream.aggregator.report.calc;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.schemas.avro.HttpPhaseStats;
import io.capstream.schemas.avro.HttpPhases;
import io.capstream.schemas.avro.RequestCompleted;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code capstream.statistics.http_phases}: the phases of each request and their distributions. */
class HttpPhaseCalculatorTest {
    private static final long MS = 1_000_000L;

    private static RequestCompleted withPhases(int index, boolean reused, long tlsMs, long ttftMs) {
        // blocked 1, connect 2 (0 reused), tls, sent 1 ms after the connection, head 100 ms later, chunk 1 ms after
        long connect = reused ? 0 : 2;
        long tls = reused ? 0 : tlsMs;
        long connection = 1 + connect + tls;
        return Fixtures.ok(index, ttftMs, ttftMs + 50, 10, 5).setHttpPhases(HttpPhases.newBuilder()
                .setConnectionReused(reused).setBlockedNs(MS).setDnsNs(0).setConnectNs(connect * MS).setTlsNs(tls * MS)
                .setSentNs((connection + 1) * MS).setHeadersNs((connection + 101) * MS)
                .setFirstChunkNs((connection + 102) * MS).build()).build();
    }

    @Test
    void eachPhaseHasItsDistributionAndTheRowsAddUpToTheTtft() {
        List<RequestCompleted> ok = List.of(withPhases(2, true, 0, 200), withPhases(0, false, 10, 300),
                withPhases(1, false, 20, 400), Fixtures.ok(3, 100, 150, 10, 5).build());
        HttpPhaseStats s = HttpPhaseCalculator.compute(ok);
        assertThat(s.getRequests()).as("requests with phases").isEqualTo(3);
        assertThat(s.getReusedConnections()).as("reused").isEqualTo(1);
        assertThat(s.getHttpReqTlsHandshakingMs().getP50()).as("TLS p50 (0, 10, 20)").isEqualTo(10.0);
        assertThat(s.getHttpReqTlsHandshakingMs().getP99()).as("TLS p99").isEqualTo(20.0);
        assertThat(s.getHttpReqWaitingMs().getP50()).as("waiting p50").isEqualTo(100.0);
        assertThat(s.getPerRequest().getRequestIndex()).as("rows in request order").containsExactly(0, 1, 2);
        assertThat(s.getPerRequest().getConnectionReused()).as("reuse per row").containsExactly(false, false, true);
        for (int i = 0; i < 3; i++) {
            var r = s.getPerRequest();
            double sum = r.getHttpReqBlocked().get(i) + r.getHttpReqDns().get(i) + r.getHttpReqConnecting().get(i)
                    + r.getHttpReqTlsHandshaking().get(i) + r.getHttpReqSending().get(i) + r.getHttpReqWaiting().get(i)
                    + r.getFirstChunk().get(i) + r.getFirstContent().get(i);
            assertThat(sum).as("phases of row %d add up to its TTFT", i).isCloseTo(new double[] {300, 400, 200}[i],
                    org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    @Test
    void noEventWithPhasesGivesNone() {
        assertThat(HttpPhaseCalculator.compute(List.of(Fixtures.ok(0, 100, 150, 10, 5).build())))
                .as("statistics of events without http_phases").isNull();
    }

    @Test
    void aPhaseNotReachedIsLeftOut() {
        RequestCompleted c = Fixtures.ok(0, 100, 150, 10, 5).setHttpPhases(HttpPhases.newBuilder()
                .setBlockedNs(MS).setSentNs(2 * MS).setHeadersNs(-1).setFirstChunkNs(-1).build()).build();
        HttpPhaseStats s = HttpPhaseCalculator.compute(List.of(c));
        assertThat(s.getHttpReqWaitingMs().getCount()).as("waiting samples").isZero();
        assertThat(s.getPerRequest().getHttpReqWaiting()).as("waiting of the row").containsExactly(-1.0);
        assertThat(s.getHttpReqSendingMs().getP50()).as("sending").isEqualTo(1.0);
    }
}
