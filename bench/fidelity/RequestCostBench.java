package io.capstream.loadgen.client;

import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.loadgen.workload.RequestBodyBuilder;
import io.capstream.loadgen.workload.ThinkingMode;
import java.lang.management.ManagementFactory;

/**
 * Three per-request costs of the event loop outside the stream, against a jar (issue 33 item 4): {@code prompt}, one
 * synthetic prompt of 256 tokens as {@code BodySource} builds it for the oracle's runs ({@code PromptBuilder}),
 * {@code body}, its request body ({@code RequestBodyBuilder.request}, from 64 prompts built before), and {@code gaps}, the request event's list of 63 chunk gaps
 * ({@code OutputChunkGaps.toList}, 64-token answers). Prints thread CPU (µs) and heap bytes per request for each,
 * six rounds or the second argument's (the first ones warm the JIT). Run it once per jar, alternating the jars, pinned, with capstream's JIT
 * settings:
 *
 * <pre>
 * javac -d /tmp/rcb -cp cli/target/capstream.jar bench/fidelity/RequestCostBench.java
 * taskset -c 0 java -XX:+UseZGC -XX:TieredStopAtLevel=1 -Xms2g -Xmx2g -cp /tmp/rcb:cli/target/capstream.jar \
 *     io.capstream.loadgen.client.RequestCostBench 20000 12
 * </pre>
 */
public class RequestCostBench {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        int rounds = a.length > 1 ? Integer.parseInt(a[1]) : 6;
        PromptBuilder prompts = new PromptBuilder(0);
        RequestBodyBuilder bodies = new RequestBodyBuilder("oracle", 64, ThinkingMode.DEFAULT, null);
        int[] g = new int[63];
        for (int i = 0; i < g.length; i++) {
            g[i] = 9_990 + (i * 7) % 23;
        }
        OutputChunkGaps gaps = OutputChunkGaps.of(g, g.length, 0);
        String[] fixed = new String[64];
        for (int i = 0; i < fixed.length; i++) {
            fixed[i] = prompts.prompt(100_000 + i, 256);
        }
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long sink = 0;
        for (int round = 0; round < rounds; round++) {
            StringBuilder line = new StringBuilder("round " + round);
            for (int part = 0; part < 3; part++) {
                long cpu0 = mx.getCurrentThreadCpuTime();
                long alloc0 = mx.getThreadAllocatedBytes(tid);
                for (int i = 0; i < n; i++) {
                    int index = round * n + i;
                    if (part == 0) {
                        sink += prompts.prompt(index, 256).length();
                    } else if (part == 1) {
                        sink += bodies.request(fixed[i & 63], index).buffer().length();
                    } else {
                        sink += gaps.toList().size();
                    }
                }
                double us = (mx.getCurrentThreadCpuTime() - cpu0) / 1e3 / n;
                double bytes = (double) (mx.getThreadAllocatedBytes(tid) - alloc0) / n;
                line.append(String.format("  %s %.3f us %.0f B", new String[] {"prompt", "body", "gaps"}[part], us, bytes));
            }
            System.out.println(line);
        }
        System.out.println("sink " + sink);
    }
}
