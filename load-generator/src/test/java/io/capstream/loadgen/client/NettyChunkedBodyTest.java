package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ClientTls;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A stream's chunked body on {@link NettyStreamTransport}'s pipeline is read without Netty's HTTP decoder after its
 * head ({@link NettyStreamHandler}, {@link ChunkedBody}): the oracle's response cut into two socket reads at every
 * byte offset (inside the head, the chunk framing, a JSON payload, {@code [DONE]}) gives the same result as in one
 * read, with each measurement stamped by the read that completed its line; the decoder is removed while the body is
 * read and put back for a kept-alive connection's next response; a body with a length still goes through the
 * decoder; malformed chunk framing fails the request. The reads are an {@link EmbeddedChannel}'s inbound messages, the
 * clock counts 1,000 ns per read.
 */
class NettyChunkedBodyTest {
    static Vertx vertx;

    static final String HEAD = "HTTP/1.1 200 OK\r\nDate: Sat, 05 Dec 2026 23:00:00 GMT\r\nContent-type: text/event-stream"
            + "\r\nTransfer-encoding: chunked\r\n\r\n";
    static final String TOKEN2 = ChunkedBodyTest.TOKEN.replace(" tok", " tik");

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    /** A connection on the transport's pipeline with a request bound to it. */
    static final class Conn {
        final AtomicLong clock = new AtomicLong();
        final NettyStreamTransport transport;
        final EmbeddedChannel ch = new EmbeddedChannel();
        StreamExchange ex;

        Conn(boolean keepAlive) {
            transport = new NettyStreamTransport(vertx, "http://127.0.0.1:1/v1/chat/completions", ClientTls.DEFAULT,
                    10_000, keepAlive);
            NettyStreamTransport.pipeline(ch.pipeline(), null, transport, () -> clock.addAndGet(1_000));
            bind(keepAlive);
        }

        void bind(boolean keepAlive) {
            ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/chat/completions",
                    Unpooled.EMPTY_BUFFER));
            ch.releaseOutbound();
            ex = new StreamExchange(0, new ChunkAccumulator(0, ApiEndpoint.CHAT, false, false), vertx, 10_000,
                    keepAlive, ThreadLocal.withInitial(() -> new byte[64]), null);
            ch.pipeline().get(NettyStreamHandler.class).bind(ex, (ContextInternal) vertx.getOrCreateContext());
        }

        RequestResult result() throws Exception {
            return ex.promise.future().await(10, TimeUnit.SECONDS);
        }
    }

    static ByteBuf buf(byte[] b, int from, int to) {
        return Unpooled.wrappedBuffer(b, from, to - from);
    }

    @Test
    void theOraclesResponseCutAtEveryOffsetGivesTheResultOfOneRead() throws Exception {
        String body = ChunkedBodyTest.chunk(ChunkedBodyTest.ROLE) + ChunkedBodyTest.chunk(ChunkedBodyTest.TOKEN)
                + ChunkedBodyTest.chunk(TOKEN2) + ChunkedBodyTest.chunk(ChunkedBodyTest.USAGE) + "0\r\n\r\n";
        String all = HEAD + body;
        byte[] b = all.getBytes(StandardCharsets.UTF_8);
        int tokenLineEnd = all.indexOf(" tok\"}}]}\n") + " tok\"}}]}".length(); // the first token's line's \n
        int doneLineEnd = all.indexOf("[DONE]\n") + "[DONE]".length();
        long bodyBytes = (ChunkedBodyTest.DATA.replaceFirst(" tok", " tik")).getBytes(StandardCharsets.UTF_8).length;
        for (int cut = 0; cut <= b.length; cut++) {
            Conn c = new Conn(false);
            if (cut == 0 || cut == b.length) {
                c.ch.writeInbound(buf(b, 0, b.length));
            } else {
                c.ch.writeInbound(buf(b, 0, cut), buf(b, cut, b.length));
            }
            RequestResult r = c.result();
            boolean oneRead = cut == 0 || cut == b.length;
            assertThat(r.error()).as("error, cut at %d", cut).isNull();
            assertThat(r.httpStatus()).as("status, cut at %d", cut).isEqualTo(200);
            assertThat(r.ttftNs()).as("first token: the read with its line's end, cut at %d", cut)
                    .isEqualTo(oneRead || tokenLineEnd < cut ? 1_000 : 2_000);
            assertThat(r.e2eNs()).as("[DONE]: the read with its line's end, cut at %d", cut)
                    .isEqualTo(oneRead || doneLineEnd < cut ? 1_000 : 2_000);
            assertThat(r.contentChunks()).as("content chunks, cut at %d", cut).isEqualTo(2);
            assertThat(r.completionTokens()).as("usage, cut at %d", cut).isEqualTo(64);
            // reading stops at [DONE]: the data after its line in a later read is not counted
            long unread = !oneRead && doneLineEnd < cut && cut < doneLineEnd + 2 ? doneLineEnd + 2 - cut : 0;
            assertThat(r.bodyBytes()).as("body bytes (the chunks' data), cut at %d", cut).isEqualTo(bodyBytes - unread);
            c.ch.runPendingTasks();
            assertThat(c.ch.isOpen()).as("closed after the body (no keep-alive), cut at %d", cut).isFalse();
            c.ch.finishAndReleaseAll();
        }
    }

    @Test
    void theDecoderIsRemovedForTheBodyAndPutBackForAKeptConnection() throws Exception {
        Conn c = new Conn(true);
        String body = ChunkedBodyTest.chunk(ChunkedBodyTest.ROLE) + ChunkedBodyTest.chunk(ChunkedBodyTest.TOKEN);
        c.ch.writeInbound(Unpooled.copiedBuffer(HEAD + body, StandardCharsets.UTF_8));
        assertThat(c.ch.pipeline().get(NettyStreamTransport.DECODER)).as("the decoder during the stream's body")
                .isNull();
        c.ch.writeInbound(Unpooled.copiedBuffer(ChunkedBodyTest.chunk(ChunkedBodyTest.USAGE) + "0\r\n\r\n",
                StandardCharsets.UTF_8));
        RequestResult first = c.result();
        assertThat(first.error()).as("first response's error").isNull();
        assertThat(first.contentChunks()).as("first response's content chunks").isEqualTo(1);
        assertThat(c.ch.pipeline().names()).as("the pipeline after the body").containsSubsequence(
                NettyStreamTransport.DECODER, NettyStreamTransport.STREAM);
        assertThat(c.ch.isOpen()).as("kept open").isTrue();

        // the next response on the same connection: a body with a length (through the decoder), then a stream again
        c.bind(true);
        String json = "{\"error\":{\"message\":\"busy\"}}";
        c.ch.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + json.length() + "\r\n\r\n" + json, StandardCharsets.UTF_8));
        RequestResult second = c.result();
        assertThat(second.httpStatus()).as("second response's status").isEqualTo(503);
        assertThat(second.error()).as("second response's error").isNotNull();

        c.bind(true);
        c.ch.writeInbound(Unpooled.copiedBuffer(HEAD + body + ChunkedBodyTest.chunk(ChunkedBodyTest.USAGE)
                + "0\r\n\r\n", StandardCharsets.UTF_8));
        RequestResult third = c.result();
        assertThat(third.error()).as("third response's error").isNull();
        assertThat(third.contentChunks()).as("third response's content chunks").isEqualTo(1);
        assertThat(third.completionTokens()).as("third response's usage").isEqualTo(64);
        c.ch.finishAndReleaseAll();
    }

    @Test
    void aBodyWithALengthStaysWithTheDecoder() throws Exception {
        Conn c = new Conn(false);
        String data = ChunkedBodyTest.ROLE + ChunkedBodyTest.TOKEN + ChunkedBodyTest.USAGE;
        c.ch.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: "
                + data.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + data, StandardCharsets.UTF_8));
        RequestResult r = c.result();
        assertThat(r.error()).as("error").isNull();
        assertThat(r.contentChunks()).as("content chunks").isEqualTo(1);
        assertThat(r.completionTokens()).as("usage").isEqualTo(64);
        c.ch.finishAndReleaseAll();
    }

    @Test
    void malformedChunkFramingFailsTheRequest() throws Exception {
        Conn c = new Conn(false);
        c.ch.writeInbound(Unpooled.copiedBuffer(HEAD + ChunkedBodyTest.chunk(ChunkedBodyTest.TOKEN) + "zz\r\n",
                StandardCharsets.UTF_8));
        RequestResult r = c.result();
        assertThat(r.error()).as("error").isNotNull();
        assertThat(r.error().type()).as("error type").isEqualTo(ErrorTypes.INCOMPLETE_READ);
        assertThat(r.error().message()).as("error message").contains("invalid chunk size");
        assertThat(r.contentChunks()).as("the chunk before the bad framing was read").isEqualTo(1);
        assertThat(c.ch.isOpen()).as("closed").isFalse();
        c.ch.finishAndReleaseAll();
    }
}
