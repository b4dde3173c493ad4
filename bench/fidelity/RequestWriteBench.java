package io.capstream.loadgen.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
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
import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * One streamed request's bytes, the two ways the Netty transport has made them (issue 33 item 4): {@code old}, a
 * {@code DefaultFullHttpRequest} with its header map through Netty's {@code HttpRequestEncoder} (each request on an
 * {@link EmbeddedChannel} holding only the encoder, as the connection's pipeline did), and {@code new},
 * {@link RequestBytes} into one pooled direct buffer. The oracle's request: the run's seven headers and a
 * 1,000-byte body. Prints thread CPU and heap bytes per request for each, alternating, six rounds (the first ones
 * warm the JIT). Run against a jar with {@code RequestBytes}, pinned, with capstream's JIT settings:
 *
 * <pre>
 * javac -d /tmp/rwb -cp cli/target/capstream.jar bench/fidelity/RequestWriteBench.java
 * taskset -c 0 java -XX:+UseZGC -XX:TieredStopAtLevel=1 -cp /tmp/rwb:cli/target/capstream.jar \
 *     io.capstream.loadgen.client.RequestWriteBench 20000
 * </pre>
 */
public class RequestWriteBench {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        String target = "/v1/chat/completions";
        String host = "127.0.0.1:18490";
        Buffer body = Buffer.buffer("{\"model\":\"oracle\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "x".repeat(900) + "\"}],\"max_tokens\":64,\"stream\":true}");
        RequestBytes bytes = new RequestBytes(target, host);
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long sink = 0;
        for (int round = 0; round < 6; round++) {
            for (int variant = 0; variant < 2; variant++) {
                long cpu0 = mx.getCurrentThreadCpuTime();
                long alloc0 = mx.getThreadAllocatedBytes(tid);
                for (int i = 0; i < n; i++) {
                    MultiMap h = new RequestOptions().putHeader("Content-Type", "application/json")
                            .putHeader("Accept-Encoding", "identity").putHeader("User-Agent", "capstream")
                            .putHeader("Connection", "close")
                            .putHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
                            .putHeader("X-Request-Id", "run-1-" + i).getHeaders();
                    if (variant == 0) {
                        byte[] b = body.getBytes();
                        DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
                                target, Unpooled.wrappedBuffer(b));
                        req.headers().set(HttpHeaderNames.HOST, host);
                        for (Map.Entry<String, String> e : h) {
                            req.headers().add(e.getKey(), e.getValue());
                        }
                        req.headers().set(HttpHeaderNames.CONTENT_LENGTH, b.length);
                        EmbeddedChannel ch = new EmbeddedChannel(new HttpRequestEncoder());
                        ch.writeOutbound(req);
                        ByteBuf out;
                        while ((out = ch.readOutbound()) != null) {
                            sink += out.readableBytes();
                            out.release();
                        }
                        ch.finishAndReleaseAll();
                    } else {
                        EmbeddedChannel ch = new EmbeddedChannel();
                        ByteBuf out = bytes.encode(PooledByteBufAllocator.DEFAULT, h, body);
                        sink += out.readableBytes();
                        ch.writeOutbound(out);
                        ch.finishAndReleaseAll();
                    }
                }
                long cpu = mx.getCurrentThreadCpuTime() - cpu0;
                long alloc = mx.getThreadAllocatedBytes(tid) - alloc0;
                System.out.printf("round %d %s: %.0f ns CPU per request, %.0f bytes allocated per request%n", round,
                        variant == 0 ? "old" : "new", cpu / (double) n, alloc / (double) n);
            }
        }
        if (sink == 42) {
            System.out.println();
        }
    }
}
