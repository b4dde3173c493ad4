package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.loadgen.client.FailureMapper.Phase;
import io.vertx.core.http.HttpClosedException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class FailureMapperTest {
    @Test
    void messagesAreCutAt2048WithTheFlag() {
        RequestError long1 = RequestError.of("X", "a".repeat(2049));
        assertEquals(2048, long1.message().length());
        assertTrue(long1.truncated());
        RequestError exact = RequestError.of("X", "a".repeat(2048));
        assertFalse(exact.truncated());
        assertEquals("<empty exception message>", RequestError.of("X", "").message());
        assertEquals("<empty exception message>", RequestError.of("X", null).message());
        assertFalse(RequestError.of("X", null).truncated());
    }

    @Test
    void connectPhase() {
        assertEquals(new RequestError("URLError", "<urlopen error [Errno 111] Connection refused>", false),
                FailureMapper.map(new ConnectException("Connection refused: /127.0.0.1:1"), Phase.CONNECT, 0));
        assertEquals("<urlopen error timed out>",
                FailureMapper.map(new io.netty.channel.ConnectTimeoutException("connection timed out"), Phase.CONNECT, 0).message());
        RequestError host = FailureMapper.map(new UnknownHostException("no.such.host"), Phase.CONNECT, 0);
        assertEquals("URLError", host.type());
        assertThat(host.message()).contains("Name or service not known");
        RequestError wrapped = FailureMapper.map(new RuntimeException("x", new ConnectException("Connection refused")), Phase.CONNECT, 0);
        assertEquals("<urlopen error [Errno 111] Connection refused>", wrapped.message());
    }

    @Test
    void headerAndBodyPhases() {
        assertEquals(new RequestError("TimeoutError", "timed out", false),
                FailureMapper.map(new TimeoutException("The timeout period of 900000ms has been exceeded"), Phase.HEADERS, 0));
        assertEquals("RemoteDisconnected", FailureMapper.map(new HttpClosedException("Connection was closed"), Phase.HEADERS, 0).type());
        RequestError cut = FailureMapper.map(new HttpClosedException("Connection was closed"), Phase.BODY, 1234);
        assertEquals("IncompleteRead", cut.type());
        assertThat(cut.message()).startsWith("IncompleteRead(1234 bytes read)");
        assertEquals("ConnectionResetError",
                FailureMapper.map(new IOException("Connection reset by peer"), Phase.BODY, 5).type());
        assertEquals("TimeoutError", FailureMapper.map(new TimeoutException(), Phase.BODY, 5).type());
    }
}
