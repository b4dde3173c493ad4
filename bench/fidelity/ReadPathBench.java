package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.ClientTls;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.ContextInternal;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The Netty transport's read path per chunk without the kernel or a server: each request gets a connection's
 * pipeline ({@code NettyStreamTransport.pipeline}: read stamp, HTTP decoding, stream handler) on an
 * {@link EmbeddedChannel}, the request written as the jar's transport writes it (the run's headers, a 1,000-byte body:
 * one buffer with {@code RequestBytes}, else a {@code DefaultFullHttpRequest} through the pipeline's encoder), a bound
 * {@link StreamExchange}, and the oracle's response as the JDK's HTTP server sends
 * it, one socket read per chunk (the head with the role chunk, 64 token chunks, the usage chunk with {@code [DONE]},
 * the last chunk), each read a direct buffer from Netty's default allocator as the epoll transport's reads are.
 * Prints the thread's CPU time and heap allocation per chunk for six rounds (the first ones warm the JIT). Compare
 * jars side by side, pinned, with capstream's JIT settings (it is in capstream's package, to reach the pipeline):
 *
 * <pre>
 * javac -d /tmp/rpb -cp cli/target/capstream.jar bench/fidelity/ReadPathBench.java
 * taskset -c 0 java -XX:+UseZGC -XX:TieredStopAtLevel=1 -cp /tmp/rpb:cli/target/capstream.jar \
 *     io.capstream.loadgen.client.ReadPathBench 2000
 * </pre>
 */
public class ReadPathBench {
    static String chunk(String s) {
        return Integer.toHexString(s.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + s + "\r\n";
    }

    public static void main(String[] a) throws Exception {
        String id = "chatcmpl-123";
        String head = "HTTP/1.1 200 OK\r\nDate: Sat, 05 Dec 2026 23:00:00 GMT\r\nContent-type: text/event-stream\r\n"
                + "Transfer-encoding: chunked\r\n\r\n";
        byte[] first = (head + chunk("data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"choices\":"
                + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"))
                .getBytes(StandardCharsets.UTF_8);
        byte[] tok = chunk("data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\" tok\"}}]}\n\n").getBytes(StandardCharsets.UTF_8);
        byte[] end = (chunk("data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":"
                + "{\"prompt_tokens\":192,\"completion_tokens\":64,\"total_tokens\":256}}\n\ndata: [DONE]\n\n")
                + "0\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        Vertx vertx = Vertx.vertx();
        ContextInternal ctx = (ContextInternal) vertx.getOrCreateContext();
        NettyStreamTransport transport = new NettyStreamTransport(vertx, "http://127.0.0.1:1/v1/chat/completions",
                ClientTls.DEFAULT, 10_000, false);
        ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[4096]);
        ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        int requests = Integer.parseInt(a[0]);
        Buffer body = Buffer.buffer("{\"model\":\"oracle\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "x".repeat(900) + "\"}],\"max_tokens\":64,\"stream\":true}");
        Object newWay = requestBytes();
        System.out.println(newWay == null ? "request: DefaultFullHttpRequest through the pipeline's encoder"
                : "request: RequestBytes, one buffer");
        long sink = 0;
        for (int round = 0; round < 6; round++) {
            long cpu0 = mx.getCurrentThreadCpuTime();
            long alloc0 = mx.getThreadAllocatedBytes(tid);
            long chunks = 0;
            for (int r = 0; r < requests; r++) {
                EmbeddedChannel ch = new EmbeddedChannel();
                NettyStreamTransport.pipeline(ch.pipeline(), null, transport, System::nanoTime);
                ch.writeOutbound(request(r, body, newWay));
                ch.releaseOutbound();
                long t0 = System.nanoTime();
                StreamExchange ex = new StreamExchange(t0, new ChunkAccumulator(t0, ApiEndpoint.CHAT, false, false),
                        vertx, 10_000, false, scratch, null);
                ch.pipeline().get(NettyStreamHandler.class).bind(ex, ctx);
                ch.writeInbound(read(alloc, first));
                for (int i = 0; i < 64; i++) {
                    ch.writeInbound(read(alloc, tok));
                }
                ch.writeInbound(read(alloc, end));
                ch.finishAndReleaseAll();
                chunks += 66;
                sink += ex.acc.contentChunks() + ex.splitter.bytes();
            }
            long cpu = mx.getCurrentThreadCpuTime() - cpu0;
            long bytes = mx.getThreadAllocatedBytes(tid) - alloc0;
            System.out.printf("round %d: %.0f ns CPU per chunk (%.2f ms per 1,000 chunks), %.0f bytes allocated per "
                    + "chunk%n", round, cpu / (double) chunks, cpu / (double) chunks / 1000, bytes / (double) chunks);
        }
        if (sink == 42) {
            System.out.println();
        }
        vertx.close().await();
    }

    /** @return the jar's {@code RequestBytes} for the oracle's URL, or null when the jar has none (before it) */
    private static Object requestBytes() throws Exception {
        try {
            Class<?> c = Class.forName("io.capstream.loadgen.client.RequestBytes");
            var k = c.getDeclaredConstructor(String.class, String.class);
            k.setAccessible(true);
            return k.newInstance("/v1/chat/completions", "127.0.0.1:18490");
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /**
     * @return request {@code i} as the jar's transport writes it: the run's headers and a 1,000-byte body, as one
     *         buffer ({@code RequestBytes}) or as a {@code DefaultFullHttpRequest} for the pipeline's encoder (the
     *         code of the transport before it)
     */
    private static Object request(int i, Buffer body, Object newWay) throws Exception {
        MultiMap h = new RequestOptions().putHeader("Content-Type", "application/json")
                .putHeader("Accept-Encoding", "identity").putHeader("User-Agent", "capstream")
                .putHeader("Connection", "close")
                .putHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                .putHeader("X-Request-Id", "run-1-" + i).getHeaders();
        if (newWay != null) {
            var m = newWay.getClass().getDeclaredMethod("encode", ByteBufAllocator.class, Iterable.class, Buffer.class);
            m.setAccessible(true);
            return m.invoke(newWay, PooledByteBufAllocator.DEFAULT, h, body);
        }
        byte[] bytes = body.getBytes();
        DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
                "/v1/chat/completions", Unpooled.wrappedBuffer(bytes));
        req.headers().set(HttpHeaderNames.HOST, "127.0.0.1:18490");
        for (Map.Entry<String, String> e : h) {
            req.headers().add(e.getKey(), e.getValue());
        }
        req.headers().set(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        return req;
    }

    private static ByteBuf read(ByteBufAllocator alloc, byte[] b) {
        ByteBuf buf = alloc.directBuffer(2048);
        buf.writeBytes(b);
        return buf;
    }
}
