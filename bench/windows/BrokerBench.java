/*
 * Real-broker throughput of `aggregate` on a pre-filled capstream.events, and the broker's ceiling (issue 31, item 3).
 * Run by bench/windows/broker.sh:
 *   lag   BOOTSTRAP GROUP REQUESTS TIMEOUT_S [PID...]   polls the consumer group GROUP (an aggregate's --application-id) every
 *         250 ms from its own start until its committed offsets reach the end of capstream.events and of every
 *         repartition topic it reads (but for the last transaction's commit marker there); prints the seconds to the
 *         first commit and to lag 0, REQUESTS / seconds, and the CPU seconds the processes PID used until then.
 *   count BOOTSTRAP APP REQUESTS STATE_DIR     the ceiling: a plain Kafka Streams count per key (run id, values not
 *         decoded) over capstream.events, exactly-once v2, commit interval 100 ms, one thread per core, timed the same
 *         way (from its start until its lag is 0).
 *   windows BOOTSTRAP REGISTRY APP REQUESTS STATE_DIR   the window topology alone (EventsSource, WindowTopology with
 *         its defaults: 1 min windows), with the same settings, timed the same way: the classes on the class path
 *         decide which version runs.
 */
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;

public class BrokerBench {
    static final String EVENTS = "capstream.events";

    public static void main(String[] a) throws Exception {
        if (a[0].equals("lag")) {
            long t0 = System.nanoTime();
            List<String> pids = List.of(a).subList(5, a.length);
            double[] atFirstCommit = {-1};
            double[] t = waitForLagZero(a[1], a[2], t0, Integer.parseInt(a[4]), () -> atFirstCommit[0] = cpuSeconds(pids));
            report("aggregate", Long.parseLong(a[3]), t);
            if (!pids.isEmpty()) {
                double cpu = cpuSeconds(pids);
                System.out.printf("aggregate: %.1f CPU s (user + system, all threads) = %.0f request events per CPU "
                        + "second; %.1f CPU s to the first commit, %.1f after it%n", cpu, Long.parseLong(a[3]) / cpu,
                        atFirstCommit[0], cpu - atFirstCommit[0]);
                System.out.printf("aggregate: CPU s by thread at lag 0: %s%n", threadSplit(pids));
            }
        } else if (a[0].equals("windows")) {
            StreamsBuilder b = new StreamsBuilder();
            io.capstream.aggregator.window.WindowTopology.addTo(io.capstream.aggregator.events.EventsSource.stream(b,
                    io.capstream.aggregator.events.EventsSourceConfig.defaults(a[2])), b,
                    io.capstream.aggregator.window.WindowTopologyConfig.defaults(a[2]));
            time("window topology alone", b, a[1], a[3], Long.parseLong(a[4]), a[5]);
        } else {
            StreamsBuilder b = new StreamsBuilder();
            b.stream(EVENTS, Consumed.with(Serdes.String(), Serdes.ByteArray())).groupByKey().count();
            time("plain Kafka Streams count", b, a[1], a[2], Long.parseLong(a[3]), a[4]);
        }
    }

    /** @return user + system CPU seconds of process {@code pid} so far (Linux /proc; clock ticks of 10 ms) */
    static double cpuSeconds(String pid) throws java.io.IOException {
        return statCpu(java.nio.file.Path.of("/proc", pid, "stat"));
    }

    /**
     * @return user + system CPU seconds of the processes and their descendants (./capstream may run java as a child,
     *         e.g. while it writes a class-data archive)
     */
    static double cpuSeconds(List<String> pids) {
        double cpu = 0;
        for (long pid : withDescendants(pids)) {
            try {
                cpu += cpuSeconds(Long.toString(pid));
            } catch (java.io.IOException e) {
                // gone
            }
        }
        return cpu;
    }

    static List<Long> withDescendants(List<String> pids) {
        List<Long> all = new java.util.ArrayList<>();
        for (String p : pids) {
            all.add(Long.parseLong(p));
            ProcessHandle.of(Long.parseLong(p)).ifPresent(h -> h.descendants().forEach(d -> all.add(d.pid())));
        }
        return all;
    }

    /**
     * @return CPU seconds per kind of thread of the processes (thread names as /proc shows them, 15 characters): JIT
     *         compilers, GC (and the VM thread), Kafka clients' network threads, the Kafka Streams threads (stream,
     *         global, state updater: named after the application id), main, others
     */
    static String threadSplit(List<String> pids) {
        Map<String, Double> by = new java.util.TreeMap<>();
        for (long pid : withDescendants(pids)) {
            java.nio.file.Path tasks = java.nio.file.Path.of("/proc", Long.toString(pid), "task");
            try (var dirs = java.nio.file.Files.list(tasks)) {
                for (java.nio.file.Path t : dirs.toList()) {
                    try {
                        String comm = java.nio.file.Files.readString(t.resolve("comm")).trim();
                        String kind = comm.startsWith("C2 Compiler") || comm.startsWith("C1 Compiler") ? "jit"
                                : comm.startsWith("GC Thread") || comm.equals("VM Thread") ? "gc+vm"
                                : comm.startsWith("kafka-producer") ? "producer-net"
                                : comm.startsWith("bench-agg") || comm.startsWith("capstream-") ? "streams"
                                : comm.equals("main") || comm.equals("java") ? "main"
                                : "other";
                        by.merge(kind, statCpu(t.resolve("stat")), Double::sum);
                    } catch (java.io.IOException e) {
                        // thread gone
                    }
                }
            } catch (java.io.IOException e) {
                // process gone
            }
        }
        return by.entrySet().stream().map(e -> String.format("%s %.1f", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    static double statCpu(java.nio.file.Path stat) throws java.io.IOException {
        String s = java.nio.file.Files.readString(stat);
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // fields 14 and 15 of stat(5)
    }

    static void report(String what, long requests, double[] t) {
        System.out.printf("%s: first commit after %.1f s, lag 0 after %.1f s: %.0f request events/s from start, "
                        + "%.0f/s from the first commit%n", what, t[0], t[1], requests / t[1],
                requests / Math.max(0.001, t[1] - t[0]));
    }

    /** @return {seconds to the first committed offset, seconds to lag 0}, from t0 */
    static double[] waitForLagZero(String bootstrap, String group, long t0, int timeoutS) throws Exception {
        return waitForLagZero(bootstrap, group, t0, timeoutS, () -> { });
    }

    /** As above; {@code atFirstCommit} runs once, when the first committed offset is seen. */
    static double[] waitForLagZero(String bootstrap, String group, long t0, int timeoutS, Runnable atFirstCommit)
            throws Exception {
        double first = -1;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            while ((System.nanoTime() - t0) / 1e9 < timeoutS) {
                Thread.sleep(250);
                Map<TopicPartition, OffsetAndMetadata> committed;
                try {
                    committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                } catch (Exception e) {
                    continue; // group not there yet
                }
                Set<String> topics = admin.listTopics().names().get().stream()
                        .filter(n -> n.equals(EVENTS) || (n.startsWith(group + "-") && n.endsWith("-repartition")))
                        .collect(Collectors.toSet());
                Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
                admin.describeTopics(topics).allTopicNames().get().forEach((name, d) -> d.partitions()
                        .forEach(p -> ask.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
                var ends = admin.listOffsets(ask).all().get();
                long lag = 0;
                boolean any = false;
                for (var e : ends.entrySet()) {
                    OffsetAndMetadata c = committed.get(e.getKey());
                    long done = c == null ? 0 : c.offset();
                    any |= c != null && c.offset() > 0 && e.getKey().topic().equals(EVENTS);
                    long behind = Math.max(0, e.getValue().offset() - done);
                    // a repartition partition ends with the marker of the transaction that committed its offsets
                    lag += e.getKey().topic().equals(EVENTS) ? behind : Math.max(0, behind - 1);
                }
                double now = (System.nanoTime() - t0) / 1e9;
                if (any && first < 0) {
                    first = now;
                    atFirstCommit.run();
                }
                if (any && lag == 0) {
                    return new double[] {first, now};
                }
            }
        }
        throw new IllegalStateException("lag not 0 after " + timeoutS + " s");
    }

    static void time(String what, StreamsBuilder b, String bootstrap, String app, long requests, String stateDir)
            throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(Math.min(4, Runtime.getRuntime().availableProcessors())));
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        long t0 = System.nanoTime();
        try (KafkaStreams streams = new KafkaStreams(b.build(), p)) {
            streams.start();
            report(what, requests, waitForLagZero(bootstrap, app, t0, 1800));
            // the stream threads' own CPU: steady on a shared machine, and free of start-up (JIT, this file's compile)
            var mx = java.lang.management.ManagementFactory.getThreadMXBean();
            double streamCpu = 0;
            for (var info : mx.getThreadInfo(mx.getAllThreadIds())) {
                if (info != null && info.getThreadName().contains("StreamThread")) {
                    streamCpu += mx.getThreadCpuTime(info.getThreadId()) / 1e9;
                }
            }
            System.out.printf("%s: stream threads %.1f CPU s = %.0f request events per stream-thread CPU second%n",
                    what, streamCpu, requests / streamCpu);
            double cpu = cpuSeconds(Long.toString(ProcessHandle.current().pid()));
            System.out.printf("%s: %.1f CPU s (this process) = %.0f request events per CPU second%n", what, cpu,
                    requests / cpu);
            streams.close(Duration.ofSeconds(30));
        }
    }
}
