package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestBytes} writes the bytes that the transport's request before it ({@code DefaultFullHttpRequest} with
 * {@code host}, the request's headers, {@code content-length}, through Netty's {@code HttpRequestEncoder}) put on the
 * wire, for the run's headers and the {@code -H} cases that change them, and refuses the same headers.
 */
class RequestBytesTest {
    private static final String TARGET = "/v1/chat/completions";
    private static final String HOST = "127.0.0.1:18490";

    /** The request as the transport built and encoded it before (its code, verbatim, through Netty's encoder). */
    static byte[] before(String target, String host, MultiMap headers, Buffer body) {
        byte[] bytes = body.getBytes();
        DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target,
                Unpooled.wrappedBuffer(bytes));
        req.headers().set(HttpHeaderNames.HOST, host);
        for (Map.Entry<String, String> e : headers) {
            req.headers().add(e.getKey(), e.getValue());
        }
        req.headers().set(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
        ch.writeOutbound(req);
        ByteBuf all = Unpooled.buffer();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            all.writeBytes(b);
            b.release();
        }
        ch.finishAndReleaseAll();
        return ByteBufUtil.getBytes(all);
    }

    static byte[] after(String target, String host, MultiMap headers, Buffer body) {
        ByteBuf b = new RequestBytes(target, host).encode(ByteBufAllocator.DEFAULT, headers, body);
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    static MultiMap runHeaders() {
        return new RequestOptions().putHeader("Content-Type", "application/json")
                .putHeader("Accept-Encoding", "identity").putHeader("User-Agent", "capstream")
                .putHeader("Connection", "close").putHeader("Authorization", "Bearer sk-123")
                .putHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                .putHeader("X-Request-Id", "run-1-42").getHeaders();
    }

    @Test
    void theRunsRequestIsTheSameBytes() {
        Buffer body = Buffer.buffer("{\"model\":\"oracle\",\"messages\":[{\"role\":\"user\",\"content\":\"héllo ☃\"}],"
                + "\"stream\":true}");
        byte[] want = before(TARGET, HOST, runHeaders(), body);
        assertThat(new String(after(TARGET, HOST, runHeaders(), body), StandardCharsets.ISO_8859_1))
                .as("the request's bytes").isEqualTo(new String(want, StandardCharsets.ISO_8859_1));
    }

    @Test
    void headerCasesThatChangeTheRequestAreTheSameBytes() {
        List<MultiMap> cases = List.of(
                MultiMap.caseInsensitiveMultiMap(),
                MultiMap.caseInsensitiveMultiMap().add("Host", "other.example"),
                MultiMap.caseInsensitiveMultiMap().add("Content-Length", "7").add("X-A", "1"),
                MultiMap.caseInsensitiveMultiMap().add("X-Latin", "caf\u00e9").add("X-Snow", "\u2603 x"),
                MultiMap.caseInsensitiveMultiMap().add("X-Dup", "1").add("x-dup", "2").add("X-Empty", ""),
                MultiMap.caseInsensitiveMultiMap().add("Transfer-Encoding", "gzip, Chunked"),
                MultiMap.caseInsensitiveMultiMap().add("transfer-encoding", "chunked"));
        for (Buffer body : List.of(Buffer.buffer("{}"), Buffer.buffer())) {
            for (MultiMap h : cases) {
                for (String target : List.of(TARGET, "/v1/chat/completions?a=b&c=%20", "/p\u00e4th")) {
                    assertThat(new String(after(target, "[::1]:8080", h, body), StandardCharsets.ISO_8859_1))
                            .as("bytes with %s, target %s, body %d bytes", h.entries(), target, body.length())
                            .isEqualTo(new String(before(target, "[::1]:8080", h, body), StandardCharsets.ISO_8859_1));
                }
            }
        }
    }

    @Test
    void theSameHeadersAreRefused() {
        List<MultiMap> bad = List.of(
                MultiMap.caseInsensitiveMultiMap().add("Bad Name", "x"),
                MultiMap.caseInsensitiveMultiMap().add("X-A", "line\r\nInjected: 1"));
        for (MultiMap h : bad) {
            Throwable was = catchThrowable(() -> before(TARGET, HOST, h, Buffer.buffer("{}")));
            assertThat(was).as("the encoder path's refusal of %s", h.entries()).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> after(TARGET, HOST, h, Buffer.buffer("{}")))
                    .as("refusal of %s", h.entries()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(was.getMessage());
        }
    }
}
