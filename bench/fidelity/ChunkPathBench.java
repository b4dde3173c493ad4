import io.capstream.loadgen.client.ChunkAccumulator;
import io.capstream.loadgen.client.SseLineSplitter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * capstream's own per-chunk code, as {@code StreamExchange} drives it, without HTTP, Vert.x or the kernel: stamp
 * ({@code System.nanoTime()}), split, frame, decode and measure the oracle's chunks (a role chunk, 64 content chunks,
 * a usage chunk and {@code [DONE]} per request, one feed per chunk, a new accumulator per request). Prints the
 * thread's CPU time and heap allocation ({@code getThreadAllocatedBytes}) per chunk for six rounds (the first ones
 * warm the JIT). Not built by Maven; run it against a
 * jar, pinned, with capstream's JIT settings:
 *
 * <pre>
 * javac -d /tmp/cpb -cp cli/target/capstream.jar bench/fidelity/ChunkPathBench.java
 * taskset -c 0 java -XX:+UseZGC -XX:TieredStopAtLevel=1 -cp /tmp/cpb:cli/target/capstream.jar ChunkPathBench 3000
 * </pre>
 */
public class ChunkPathBench {
    public static void main(String[] a) {
        String id = "chatcmpl-oracle-000123";
        byte[] role = ("data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n").getBytes(StandardCharsets.UTF_8);
        byte[] tok = ("data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok\"}}]}\n\n").getBytes(StandardCharsets.UTF_8);
        byte[] end = ("data: {\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":192,\"completion_tokens\":64,\"total_tokens\":256}}\n\ndata: [DONE]\n\n").getBytes(StandardCharsets.UTF_8);
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        int requests = Integer.parseInt(a[0]);
        long sink = 0;
        for (int round = 0; round < 6; round++) {
            long cpu0 = mx.getCurrentThreadCpuTime();
            long alloc0 = mx.getThreadAllocatedBytes(tid);
            long chunks = 0;
            for (int r = 0; r < requests; r++) {
                long t0 = System.nanoTime();
                ChunkAccumulator acc = new ChunkAccumulator(t0);
                SseLineSplitter s = new SseLineSplitter(acc);
                acc.at(System.nanoTime()); s.feed(role, 0, role.length);
                for (int i = 0; i < 64; i++) { acc.at(System.nanoTime()); s.feed(tok, 0, tok.length); }
                acc.at(System.nanoTime()); s.feed(end, 0, end.length);
                chunks += 66;
                sink += acc.contentChunks() + acc.ttftNs();
            }
            long cpu = mx.getCurrentThreadCpuTime() - cpu0;
            long alloc = mx.getThreadAllocatedBytes(tid) - alloc0;
            System.out.printf("round %d: %.0f ns CPU per chunk (%.2f ms per 1,000 chunks), %.0f bytes allocated per chunk%n", round, cpu / (double) chunks, cpu / (double) chunks / 1000, alloc / (double) chunks);
        }
        if (sink == 42) System.out.println();
    }
}
