package io.capstream.loadgen.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ClientTls;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A request's end work runs after the event loop's I/O step, not inside the socket read that brought its
 * {@code [DONE]}: its connection is closed and its result handed to its listeners (the request event, the closed
 * loop's next start) in tasks. So in a closed loop, where a wave's streams end together, a new connection's request
 * (written when its connect completes, in the I/O step) does not wait behind the whole wave's end work. The reads
 * are an {@link EmbeddedChannel}'s inbound messages; a handler in front of the pipeline marks the time inside them.
 */
class NettyEndAfterIoTest {
    static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().await(10, TimeUnit.SECONDS);
    }

    /** Marks the calls made inside a read (on the reading thread) and whether the channel was open after it. */
    static final class InRead extends ChannelInboundHandlerAdapter {
        volatile Thread reader;
        final AtomicBoolean openAfterRead = new AtomicBoolean();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            reader = Thread.currentThread();
            try {
                ctx.fireChannelRead(msg);
            } finally {
                reader = null;
                openAfterRead.set(ctx.channel().isOpen());
            }
        }
    }

    @Test
    void theEndOfARequestRunsAfterTheReadThatEndedIt() throws Exception {
        NettyStreamTransport transport = new NettyStreamTransport(vertx, "http://127.0.0.1:1/v1/chat/completions",
                ClientTls.DEFAULT, 10_000, false);
        EmbeddedChannel ch = new EmbeddedChannel();
        InRead mark = new InRead();
        ch.pipeline().addLast(mark);
        AtomicLong clock = new AtomicLong();
        NettyStreamTransport.pipeline(ch.pipeline(), null, transport, () -> clock.addAndGet(1_000));
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/chat/completions",
                Unpooled.EMPTY_BUFFER));
        ch.releaseOutbound();
        StreamExchange ex = new StreamExchange(0, new ChunkAccumulator(0, ApiEndpoint.CHAT, false, false), vertx,
                10_000, false, ThreadLocal.withInitial(() -> new byte[64]), null);
        ch.pipeline().get(NettyStreamHandler.class).bind(ex, (ContextInternal) vertx.getOrCreateContext());
        // Awaited itself, not through the promise: Vert.x calls a completed future's listeners outside its lock, so a
        // listener the test thread adds later (the promise's await) can run, and return, before this one has.
        CompletableFuture<String> completedIn = new CompletableFuture<>();
        ex.promise.future().onComplete(r -> completedIn.complete(
                mark.reader == Thread.currentThread() ? "inside the read" : "after the read"));

        String sse = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}"
                + "\n\ndata: [DONE]\n\n";
        String body = Integer.toHexString(sse.length()) + "\r\n" + sse + "\r\n0\r\n\r\n";
        ch.writeOneInbound(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + body, StandardCharsets.UTF_8));

        String where = completedIn.get(10, TimeUnit.SECONDS);
        RequestResult r = ex.promise.future().result();
        assertThat(r.error()).as("the stream's error").isNull();
        assertThat(r.e2eNs()).as("E2E: the [DONE] read's stamp, whenever the end work runs").isEqualTo(1_000);
        assertThat(where).as("where the result reached its listeners").isEqualTo("after the read");
        assertThat(mark.openAfterRead.get()).as("the connection still open when the read that ended it returned")
                .isTrue();
        ch.runPendingTasks();
        assertThat(ch.isOpen()).as("the connection closed by the event loop's next task").isFalse();
        ch.finishAndReleaseAll();
    }
}
