package io.capstream.loadgen.client;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * One chunk's decoding alone ({@code ChunkDecoder}): the Jackson path ({@code decodeWithJackson}) against the decoder
 * as the jar runs it ({@code decode}: the fast path {@code ChatChunkReader}, Jackson for what it does not recognise)
 * and against Jackson's floor ({@code tokens}: the reused parser's {@code nextToken} over the payload, nothing read),
 * alternating in one JVM, over the payloads of the oracle's stream (a role chunk, 64 content chunks, a usage chunk) and
 * of vLLM's and llama-server's token chunks. Prints the thread's CPU time and heap allocation per payload, per
 * round (the first rounds warm the JIT). Not built by Maven; it is in capstream's package to reach the decoder:
 *
 * <pre>
 * javac -d /tmp/cdb -cp cli/target/capstream.jar bench/fidelity/ChunkDecodeBench.java
 * taskset -c 0 java -XX:+UseZGC -XX:TieredStopAtLevel=1 -cp /tmp/cdb:cli/target/capstream.jar \
 *     io.capstream.loadgen.client.ChunkDecodeBench 200000
 * </pre>
 */
public class ChunkDecodeBench {
    public static void main(String[] a) {
        String oracleRole = "{\"id\":\"chatcmpl-123\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}";
        String oracleTok = "{\"id\":\"chatcmpl-123\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\" tok\"}}]}";
        String oracleEnd = "{\"id\":\"chatcmpl-123\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":"
                + "{\"prompt_tokens\":192,\"completion_tokens\":64,\"total_tokens\":256}}";
        String vllm = "{\"id\":\"chatcmpl-7f3a9c\",\"object\":\"chat.completion.chunk\",\"created\":1733000000,\"model\":"
                + "\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" the\"},\"logprobs\":null,"
                + "\"finish_reason\":null}]}";
        String llama = "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"content\":\"olas\"}}],\"created\":"
                + "1796451010,\"id\":\"chatcmpl-F9SZNY094QFhXPDCvHxRP9GRJLuXqFCu\",\"model\":\"random-llama-20m\","
                + "\"system_fingerprint\":\"b1-80fb11a\",\"object\":\"chat.completion.chunk\"}";
        byte[][] oracle = new byte[66][];
        oracle[0] = oracleRole.getBytes(StandardCharsets.UTF_8);
        for (int i = 1; i < 65; i++) {
            oracle[i] = oracleTok.getBytes(StandardCharsets.UTF_8);
        }
        oracle[65] = oracleEnd.getBytes(StandardCharsets.UTF_8);
        byte[][][] sets = {oracle, {vllm.getBytes(StandardCharsets.UTF_8)}, {llama.getBytes(StandardCharsets.UTF_8)}};
        String[] names = {"oracle stream", "vLLM token", "llama token"};
        int n = Integer.parseInt(a[0]);
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        DecodedChunk out = new DecodedChunk();
        long sink = 0;
        for (int round = 0; round < 6; round++) {
            for (int s = 0; s < sets.length; s++) {
                for (int way = 0; way < 3; way++) {
                    byte[][] set = sets[s];
                    long cpu0 = mx.getCurrentThreadCpuTime();
                    long alloc0 = mx.getThreadAllocatedBytes(tid);
                    for (int i = 0; i < n; i++) {
                        byte[] b = set[i % set.length];
                        out.wantServerId(i % 66 == 0); // the first chunk of a request reads the id
                        if (way == 2) {
                            sink += tokens(b);
                            continue;
                        }
                        var r = way == 0 ? ChunkDecoder.decodeWithJackson(b, 0, b.length, out, false)
                                : ChunkDecoder.decode(b, 0, b.length, out, false);
                        sink += r.ordinal() + out.contentDeltas();
                    }
                    long cpu = mx.getCurrentThreadCpuTime() - cpu0;
                    long alloc = mx.getThreadAllocatedBytes(tid) - alloc0;
                    System.out.printf("round %d %-13s %-7s %6.0f ns CPU per payload, %5.1f bytes per payload%n", round,
                            names[s], way == 0 ? "jackson" : way == 1 ? "decode" : "tokens", cpu / (double) n, alloc / (double) n);
                }
            }
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    /** Jackson's floor: the payload's tokens from the thread's reused parser, nothing read from them. */
    static int tokens(byte[] b) {
        ReusableUtf8Parser p = ReusableUtf8Parser.acquire(b, 0, b.length);
        int n = 0;
        try {
            while (p.nextToken() != null) {
                n++;
            }
        } catch (java.io.IOException ex) {
            n = -1;
        } finally {
            p.release(n >= 0);
        }
        return n;
    }
}
