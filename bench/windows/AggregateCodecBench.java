/*
 * CPU cost of writing and reading one window aggregate's state record (WindowAggregate.toBytes / fromBytes: the
 * store's form and the repartition partial's body), single thread, for aggregates of 1 to 3000 requests.
 * Run by hand:  bench/windows/codec.sh   (compares two checkouts side by side; see there)
 * Prints, per aggregate size and round, ns of thread CPU time per encode and per decode, and the record's size.
 */
import io.capstream.aggregator.window.RequestSample;
import io.capstream.aggregator.window.WindowAggregate;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class AggregateCodecBench {
    public static void main(String[] args) {
        int rounds = Integer.parseInt(args.length > 0 ? args[0] : "5");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int[] sizes = {1, 30, 300, 3000};
        WindowAggregate[] aggregates = new WindowAggregate[sizes.length];
        Random random = new Random(31);
        for (int s = 0; s < sizes.length; s++) {
            WindowAggregate a = new WindowAggregate(0.01);
            for (int i = 0; i < sizes[s]; i++) {
                List<Integer> gaps = new ArrayList<>();
                for (int g = 0; g < 16; g++) {
                    gaps.add(5_000_000 + random.nextInt(40_000_000));
                }
                double ttft = 50 + random.nextDouble() * 1000;
                a.addCompleted(new RequestSample(ttft, ttft, ttft + 800 + random.nextDouble() * 400,
                        20 + random.nextDouble() * 10, 30 + random.nextDouble() * 20, 3000.0 / ttft * 1000, 3000L,
                        64, true, gaps), i % 10 != 0);
                if (i % 50 == 7) {
                    a.addFailed("HttpStatus503");
                }
            }
            aggregates[s] = a;
        }
        long sink = 0;
        for (int round = -3; round < rounds; round++) { // three warm-up rounds
            StringBuilder line = new StringBuilder(round < 0 ? "warmup" : "round " + round);
            for (int s = 0; s < sizes.length; s++) {
                byte[] bytes = aggregates[s].toBytes();
                int n = 20_000_000 / Math.max(200, bytes.length); // ~ the same bytes per size
                long c0 = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    sink += aggregates[s].toBytes().length;
                }
                long c1 = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < n; i++) {
                    sink += WindowAggregate.fromBytes(bytes).completed();
                }
                long c2 = threads.getCurrentThreadCpuTime();
                line.append(String.format("  n=%d (%d B): enc %.0f ns dec %.0f ns", sizes[s], bytes.length,
                        (double) (c1 - c0) / n, (double) (c2 - c1) / n));
            }
            System.out.println(line);
        }
        System.out.println("sink " + sink);
    }
}
