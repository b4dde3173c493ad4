package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The phase arithmetic of {@link HttpTimings#measure}: what is blocked, DNS, connect, TLS, and that they add up. */
class HttpTimingsTest {
    private static ConnectStamp stamp(long created, long connectAt, long connectedAt) {
        return new ConnectStamp(created, connectAt, connectedAt);
    }

    @Test
    void reusedConnectionIsAllBlockedBeforeItIsHandedOver() {
        HttpTimings t = HttpTimings.measure(1_000, 1_300, false, null, -1, false, true, 1_500, 9_000, 9_100);
        assertThat(t.connectionReused()).as("reused").isTrue();
        assertThat(new long[] {t.blockedNs(), t.dnsNs(), t.connectNs(), t.tlsNs()}).as("blocked, dns, connect, tls")
                .containsExactly(300, 0, 0, 0);
        assertThat(new long[] {t.sentNs(), t.headersNs(), t.firstChunkNs()}).as("points after t0")
                .containsExactly(500, 8_000, 8_100);
        assertThat(new long[] {t.sendingNs(), t.waitingNs(), t.firstChunkPhaseNs(), t.firstContentNs(8_600)})
                .as("sending, waiting, first chunk, first content").containsExactly(200, 7_500, 100, 500);
    }

    @Test
    void newHttpsConnectionSplitsIntoDnsConnectAndTls() {
        // t0 1000; channel created 1010; resolved 1060; TCP up 1160; TLS done (ready) 1460; handed over 1470
        HttpTimings t = HttpTimings.measure(1_000, 1_470, true, stamp(1_010, 1_060, 1_160), 1_460, true, true,
                1_500, 2_000, 2_010);
        assertThat(t.connectionReused()).as("reused").isFalse();
        assertThat(new long[] {t.blockedNs(), t.dnsNs(), t.connectNs(), t.tlsNs()}).as("blocked, dns, connect, tls")
                .containsExactly(20, 50, 100, 300);
        assertThat(t.connectionNs()).as("connection handed over, ns after t0").isEqualTo(470);
        long ttft = 2_100 - 1_000;
        assertThat(t.connectionNs() + t.sendingNs() + t.waitingNs() + t.firstChunkPhaseNs() + t.firstContentNs(ttft))
                .as("the phases add up to the TTFT").isEqualTo(ttft);
    }

    @Test
    void anIpAddressHasNoDnsAndHttpHasNoTls() {
        HttpTimings t = HttpTimings.measure(1_000, 1_200, true, stamp(1_010, 1_060, 1_160), 1_190, false, false,
                1_250, 1_300, 1_310);
        assertThat(new long[] {t.blockedNs(), t.dnsNs(), t.connectNs(), t.tlsNs()})
                .as("registration counts as connect; ready - TCP up is the end of the connect for http")
                .containsExactly(20, 0, 180, 0);
    }

    @Test
    void aConnectionStartedBeforeT0CountsFromT0() {
        // another request started the connection at 900; this one waited from 1000 and got it at 1200
        HttpTimings t = HttpTimings.measure(1_000, 1_200, true, stamp(900, 950, 1_100), 1_150, true, true, -1, -1, -1);
        assertThat(new long[] {t.blockedNs(), t.dnsNs(), t.connectNs(), t.tlsNs()}).as("blocked, dns, connect, tls")
                .containsExactly(50, 0, 100, 50);
        assertThat(new long[] {t.sentNs(), t.headersNs(), t.firstChunkNs(), t.sendingNs(), t.waitingNs()})
                .as("points and phases not reached").containsOnly(-1L);
    }

    @Test
    void withoutAStampTheWholeSetupIsConnect() {
        HttpTimings t = HttpTimings.measure(1_000, 1_400, true, null, 1_380, true, true, 1_450, 1_500, 1_510);
        assertThat(new long[] {t.blockedNs(), t.dnsNs(), t.connectNs(), t.tlsNs()}).as("blocked, dns, connect, tls")
                .containsExactly(20, 0, 380, 0);
    }

    @Test
    void theStampHandlerRecordsTheConnect() {
        EmbeddedChannel ch = ConnectStamp.install(new EmbeddedChannel());
        ConnectStamp s = ch.attr(ConnectStamp.KEY).get();
        assertThat(s.connectAt()).as("connect before the channel connects").isEqualTo(-1);
        ch.connect(new InetSocketAddress("127.0.0.1", 1)).syncUninterruptibly();
        assertThat(s.connectAt()).as("connect stamped").isGreaterThanOrEqualTo(s.createdAt());
        assertThat(s.connectedAt()).as("connected stamped").isGreaterThanOrEqualTo(s.connectAt());
        ch.finishAndReleaseAll();
    }
}
