import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The floor of this machine for an event-loop streaming client: one thread, one NIO selector, the
 * reference's request pattern (a new TCP connection per request, {@code Connection: close}, closed
 * loop at concurrency C), and nothing else. It does no HTTP parsing, no JSON decoding, no events and
 * no Kafka: a read is searched for the first content token ({@code " tok"}, the oracle's only content)
 * and for {@code [DONE]}. Its client-added TTFT and its CPU per 1,000 chunks are what no Java client
 * on one core of this VM can beat, so they separate the machine's cost (syscalls, loopback TCP,
 * the oracle's own accept path) from capstream's. Timestamps: t0 = {@code System.nanoTime()} just
 * before the connect, TTFT at the read that carries the first content token, E2E at {@code [DONE]}.
 *
 * <p>Run: {@code java --source 17 FloorClient.java HOST PORT CONCURRENCY REQUESTS OUT.json [WARMUP]}:
 * WARMUP requests (default 0) first, at the same concurrency, whose prompts carry no request index
 * (the oracle logs them as -1), so that the timed requests run JIT-compiled code. OUT.json
 * has the keys {@code /work/shared/peers/oracle/client_added.py} reads ({@code request_timings} with
 * {@code request_index}, {@code ttft_ms}, {@code e2e_ms}) and {@code floor_client} (thread CPU ms,
 * chunks, CPU ms per 1,000 chunks). The prompt is 768 characters ending in the spec's tail
 * {@code "\n# request i: summarize the above in one line."}, like {@code --ctx-tokens 256}.
 */
public final class FloorClient {
    private static final byte[] TOKEN = " tok\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EVENT_END = "\n\n".getBytes(StandardCharsets.US_ASCII);

    /** One request in flight. */
    private static final class Req {
        final int index;
        final long t0;
        final ByteBuffer out;
        long ttft = -1;
        byte[] tail = new byte[0]; // the last bytes of the previous read, so that a token split over reads is found

        Req(int index, ByteBuffer out) {
            this.index = index;
            this.out = out;
            this.t0 = System.nanoTime();
        }
    }

    public static void main(String[] a) throws IOException {
        String host = a[0];
        int port = Integer.parseInt(a[1]);
        int conc = Integer.parseInt(a[2]);
        int requests = Integer.parseInt(a[3]);
        Path outFile = Path.of(a[4]);
        int warmup = a.length > 5 ? Integer.parseInt(a[5]) : 0;
        InetSocketAddress addr = new InetSocketAddress(host, port);
        if (warmup > 0) { // discarded requests whose prompts carry no index: JIT-warms this client's code
            run(addr, conc, warmup, false, null);
        }
        run(addr, conc, requests, true, outFile);
    }

    private static void run(InetSocketAddress addr, int conc, int requests, boolean indexed, Path outFile)
            throws IOException {
        Selector sel = Selector.open();
        ByteBuffer in = ByteBuffer.allocateDirect(16 * 1024);
        byte[] scratch = new byte[16 * 1024 + 16];
        List<String> rows = new ArrayList<>(requests);
        int[] next = {0};
        int done = 0;
        long chunks = 0;
        var threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        int atT0 = Math.min(conc, requests); // the first wave: one start per loop turn, I/O in between (as capstream)
        while (done < requests) {
            if (atT0 > 0) {
                start(sel, addr, next[0]++, indexed);
                atT0--;
                sel.selectNow();
            } else {
                sel.select();
            }
            Iterator<SelectionKey> it = sel.selectedKeys().iterator();
            while (it.hasNext()) {
                SelectionKey k = it.next();
                it.remove();
                SocketChannel ch = (SocketChannel) k.channel();
                Req r = (Req) k.attachment();
                try {
                    if (k.isConnectable()) {
                        ch.finishConnect();
                        ch.write(r.out);
                        k.interestOps(r.out.hasRemaining() ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
                        continue;
                    }
                    if (k.isWritable()) {
                        ch.write(r.out);
                        if (!r.out.hasRemaining()) {
                            k.interestOps(SelectionKey.OP_READ);
                        }
                        continue;
                    }
                    in.clear();
                    int n = ch.read(in);
                    long now = System.nanoTime();
                    if (n < 0) {
                        throw new IOException("closed before [DONE]");
                    }
                    in.flip();
                    int t = r.tail.length;
                    System.arraycopy(r.tail, 0, scratch, 0, t);
                    in.get(scratch, t, n);
                    int len = t + n;
                    chunks += count(scratch, t, len, EVENT_END);
                    if (r.ttft < 0 && indexOf(scratch, 0, len, TOKEN) >= 0) {
                        r.ttft = now - r.t0;
                    }
                    if (indexOf(scratch, 0, len, DONE) >= 0) {
                        rows.add(String.format("{\"request_index\": %d, \"ttft_ms\": %.6f, \"e2e_ms\": %.6f}",
                                r.index, r.ttft / 1e6, (now - r.t0) / 1e6));
                        k.cancel();
                        ch.close();
                        done++;
                        if (next[0] < requests) {
                            start(sel, addr, next[0]++, indexed);
                        }
                    } else {
                        int keep = Math.min(len, 8);
                        r.tail = java.util.Arrays.copyOfRange(scratch, len - keep, len);
                    }
                } catch (IOException e) {
                    System.err.println("request " + r.index + " failed: " + e);
                    k.cancel();
                    ch.close();
                    done++;
                    if (next[0] < requests) {
                        start(sel, addr, next[0]++, indexed);
                    }
                }
            }
        }
        sel.close();
        long cpuMs = (threads.getCurrentThreadCpuTime() - cpu0) / 1_000_000;
        if (outFile == null) {
            System.out.printf("floor client: warm-up of %d requests done%n", requests);
            return;
        }
        long wallMs = (System.nanoTime() - wall0) / 1_000_000;
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(outFile))) {
            w.printf("{\"requests\": %d, \"failed\": %d, \"wall_clock_ms\": %d, \"metrics\": {},%n", requests,
                    requests - rows.size(), wallMs);
            w.printf("\"floor_client\": {\"thread_cpu_ms\": %d, \"chunks\": %d, \"cpu_ms_per_1000_chunks\": %.2f},%n",
                    cpuMs, chunks, chunks == 0 ? 0 : cpuMs * 1000.0 / chunks);
            w.println("\"request_timings\": [" + String.join(",\n", rows) + "]}");
        }
        System.out.printf("floor client: %d requests, thread CPU %d ms, %d chunks, %.2f ms per 1,000 chunks, wall %d ms%n",
                rows.size(), cpuMs, chunks, chunks == 0 ? 0 : cpuMs * 1000.0 / chunks, wallMs);
    }

    private static void start(Selector sel, InetSocketAddress addr, int index, boolean indexed) throws IOException {
        String prompt = indexed ? "x".repeat(768 - 47 - String.valueOf(index).length()) + "\\n# request " + index
                + ": summarize the above in one line." : "x".repeat(768);
        String body = "{\"model\":\"oracle\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt
                + "\"}],\"max_tokens\":64,\"temperature\":0.0,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: " + addr.getHostString() + ":" + addr.getPort()
                + "\r\nContent-Type: application/json\r\nAccept-Encoding: identity\r\nConnection: close\r\n"
                + "Content-Length: " + b.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer out = ByteBuffer.allocate(h.length + b.length).put(h).put(b).flip();
        Req r = new Req(index, out); // t0: just before the connection opens, body already serialised
        SocketChannel ch = SocketChannel.open();
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.connect(addr);
        ch.register(sel, SelectionKey.OP_CONNECT, r);
    }

    private static int indexOf(byte[] h, int from, int to, byte[] n) {
        outer:
        for (int i = from; i <= to - n.length; i++) {
            for (int j = 0; j < n.length; j++) {
                if (h[i + j] != n[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static int count(byte[] h, int from, int to, byte[] n) {
        int c = 0;
        for (int i = Math.max(0, from - n.length + 1); i <= to - n.length; i++) {
            if (h[i] == n[0] && h[i + 1] == n[1]) {
                c++;
            }
        }
        return c;
    }
}
