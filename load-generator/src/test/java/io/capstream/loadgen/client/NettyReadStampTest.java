package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ClientTls;
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
 * The stamp of each body chunk on {@link NettyStreamTransport}'s pipeline is the time of the socket read that
 * brought its bytes: Netty reads a channel up to 16 times in one event-loop turn before its read-complete, so a
 * chunk of a later read must not take the stamp of the turn's first read. The reads are an {@link EmbeddedChannel}'s
 * inbound messages (several in one {@code writeInbound}: one read-complete for all), the clock is injected and
 * counts 1,000 ns per read.
 */
class NettyReadStampTest {
    static Vertx vertx;

    static final String HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
    static final String ROLE = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n";
    static final String TOKEN = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n";
    static final String LAST = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}"
            + "\n\ndata: [DONE]\n\n";

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    static String chunk(String s) {
        return Integer.toHexString(s.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + s + "\r\n";
    }

    @Test
    void eachChunkIsStampedWithItsOwnSocketRead() throws Exception {
        AtomicLong reads = new AtomicLong();
        NettyStreamTransport transport = new NettyStreamTransport(vertx, "http://127.0.0.1:1/v1/chat/completions",
                ClientTls.DEFAULT, 10_000, false);
        EmbeddedChannel ch = new EmbeddedChannel();
        NettyStreamTransport.pipeline(ch.pipeline(), null, transport, () -> reads.addAndGet(1_000));
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/chat/completions",
                Unpooled.EMPTY_BUFFER));
        ch.releaseOutbound();
        StreamExchange ex = new StreamExchange(0, new ChunkAccumulator(0, ApiEndpoint.CHAT, false, false), vertx,
                10_000, false, ThreadLocal.withInitial(() -> new byte[64]), null);
        ch.pipeline().get(NettyStreamHandler.class).bind(ex, (ContextInternal) vertx.getOrCreateContext());

        // three socket reads in one event-loop turn (one read-complete): head + role, the first token, the rest
        ch.writeInbound(Unpooled.copiedBuffer(HEAD + chunk(ROLE), StandardCharsets.UTF_8),
                Unpooled.copiedBuffer(chunk(TOKEN), StandardCharsets.UTF_8),
                Unpooled.copiedBuffer(chunk(LAST) + "0\r\n\r\n", StandardCharsets.UTF_8));

        RequestResult r = ex.promise.future().await(10, TimeUnit.SECONDS);
        assertThat(r.error()).as("the stream's error").isNull();
        assertThat(r.ttfoNs()).as("first output: the second read's stamp, not the first's").isEqualTo(2_000);
        assertThat(r.ttftNs()).as("first token: the second read's stamp").isEqualTo(2_000);
        assertThat(r.e2eNs()).as("[DONE] came with the third read").isEqualTo(3_000);
        ch.finishAndReleaseAll();
    }
}
