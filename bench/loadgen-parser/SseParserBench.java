/*
 * Per-chunk CPU of the SSE reader (SseLineSplitter + ChunkAccumulator), single thread.
 * Run by hand:  bench/loadgen-parser/run.sh
 * Feeds a realistic vLLM/llama.cpp-like stream (role chunk, 64 content chunks of ~150-byte JSON
 * lines, finish, usage, [DONE]) split into 1 TCP read per line, and reports ns and allocated bytes
 * per data line.
 */
import io.capstream.loadgen.client.ChunkAccumulator;
import io.capstream.loadgen.client.SseLineSplitter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public class SseParserBench {
    public static void main(String[] args) {
        List<byte[]> reads = new ArrayList<>();
        reads.add(line("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null},\"logprobs\":null,\"finish_reason\":null}]}"));
        for (int i = 0; i < 64; i++) {
            reads.add(line("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok" + i + "\"},\"logprobs\":null,\"finish_reason\":null}]}"));
        }
        reads.add(line("{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}"));
        reads.add(line("{\"id\":\"chatcmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":3613,\"completion_tokens\":64,\"total_tokens\":3677,\"prompt_tokens_details\":{\"cached_tokens\":3072}}}"));
        reads.add("data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII));
        int lines = reads.size();
        int streams = Integer.parseInt(args.length > 0 ? args[0] : "200000");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int round = 0; round < 3; round++) {
            long alloc0 = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
            long cpu0 = mx.getCurrentThreadCpuTime();
            long sink = 0;
            for (int s = 0; s < streams; s++) {
                ChunkAccumulator acc = new ChunkAccumulator(0);
                SseLineSplitter sp = new SseLineSplitter(acc);
                long t = 1;
                for (byte[] r : reads) {
                    acc.at(t++);
                    sp.feed(r, 0, r.length);
                }
                sink += acc.contentChunks() + acc.completionTokens();
            }
            long cpu = mx.getCurrentThreadCpuTime() - cpu0;
            long alloc = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - alloc0;
            double perLine = (double) cpu / ((double) streams * lines);
            System.out.printf("round %d: %d streams x %d lines: %.0f ns CPU per data line (%.1f us per 1,000 chunks), %.0f bytes allocated per line [check %d]%n",
                    round, streams, lines, perLine, perLine, (double) alloc / ((double) streams * lines), sink);
        }
    }

    static byte[] line(String json) {
        return ("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8);
    }
}
