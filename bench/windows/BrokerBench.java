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
 * System properties (through BENCH_JAVA_OPTS): -Dbench.aggregateSettings=true starts from aggregate's own Streams
 * settings (StreamsSettings) before the ones above; -Dbench.commitMs=N sets the commit interval (100);
 * -Dbench.streams.NAME=VALUE sets any other Streams or client setting.
 * count and windows also print where the wall time from the first commit to lag 0 went (Breakdown): the stream threads'
 * CPU and run-queue wait, the process's CPU by thread kind (JIT, GC, ...), the broker's (env BROKER_PID, set by
 * broker.sh) and the machine's, the stream threads' stacks sampled every 10 ms by phase of the poll loop, and Kafka
 * Streams' own totals (commits, the producer's flush and transaction time, tasks, rebalances).
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
                                : comm.startsWith("bench-agg") || comm.startsWith("capstream-")
                                        || comm.startsWith("bench-win") || comm.startsWith("bench-count") ? "streams"
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
        if (Boolean.getBoolean("bench.aggregateSettings")) {
            // -Dbench.aggregateSettings=true: aggregate's own Streams settings (StreamsSettings: producer linger and
            // batch size, compression, exception handlers), so that the figure is the one `aggregate` would see
            p.putAll(io.capstream.aggregator.runtime.StreamsSettings.defaults(app, bootstrap,
                    java.nio.file.Path.of(stateDir)).withStreamThreads(Math.min(4,
                    Runtime.getRuntime().availableProcessors())).toProperties());
        }
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, System.getProperty("bench.commitMs", "100"));
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(Math.min(4, Runtime.getRuntime().availableProcessors())));
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, "1");
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        // -Dbench.streams.<name>=<value>: any other Streams (or prefixed client) setting, to try one against the defaults
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("bench.streams.")) {
                p.put(name.substring("bench.streams.".length()), System.getProperty(name));
            }
        }
        long t0 = System.nanoTime();
        try (KafkaStreams streams = new KafkaStreams(b.build(), p)) {
            streams.start();
            Breakdown breakdown = new Breakdown(streams, app);
            breakdown.start();
            double[] t = waitForLagZero(bootstrap, app, t0, 1800, breakdown::firstCommit);
            breakdown.lagZero();
            report(what, requests, t);
            breakdown.print(what, t[1] - t[0]);
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

    /**
     * Where the stream threads' wall time goes between the first commit and lag 0: a sampler of their stacks every
     * {@value #SAMPLE_MS} ms (phase of the poll loop, the innermost Kafka or capstream frame, waiting or not), their
     * CPU and run-queue wait (/proc/self/task/TID/schedstat: time runnable but not on a CPU, i.e. the 2 cores taken
     * by others), the process's CPU by thread kind, the broker's CPU (env BROKER_PID), the machine's CPU (/proc/stat),
     * and Kafka Streams' own totals (commit and poll latencies, the producer's transaction and flush time).
     */
    static final class Breakdown extends Thread {
        static final int SAMPLE_MS = 10;
        final KafkaStreams streams;
        final String app;
        final java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        final Map<String, Integer> byPhase = new java.util.concurrent.ConcurrentHashMap<>();
        final Map<String, Integer> byFrame = new java.util.concurrent.ConcurrentHashMap<>();
        volatile boolean sampling;
        volatile boolean done;
        int samples;
        Snapshot atFirst;
        Snapshot atEnd;

        Breakdown(KafkaStreams streams, String app) {
            super("breakdown-sampler");
            setDaemon(true);
            this.streams = streams;
            this.app = app;
        }

        void firstCommit() {
            atFirst = new Snapshot(this);
            sampling = true;
        }

        void lagZero() {
            sampling = false;
            done = true;
            atEnd = new Snapshot(this);
        }

        @Override
        public void run() {
            while (!done) {
                try {
                    Thread.sleep(SAMPLE_MS);
                } catch (InterruptedException e) {
                    return;
                }
                if (!sampling) {
                    continue;
                }
                for (var info : mx.dumpAllThreads(false, false, 64)) {
                    if (!info.getThreadName().matches(".*-StreamThread-[0-9]+")) {
                        continue;
                    }
                    synchronized (this) {
                        samples++;
                    }
                    StackTraceElement[] st = info.getStackTrace();
                    String phase = phase(st);
                    String frame = frame(st, info.getThreadState());
                    byPhase.merge(phase, 1, Integer::sum);
                    byFrame.merge(phase + " | " + frame, 1, Integer::sum);
                }
            }
        }

        static String phase(StackTraceElement[] st) {
            for (int i = st.length - 1; i >= 0; i--) {
                String c = st[i].getClassName();
                String m = st[i].getMethodName();
                if (c.endsWith("StreamThread") && m.equals("pollPhase")) {
                    return "poll";
                }
                if (c.endsWith("StreamThread") && m.equals("maybeCommit")) {
                    return "commit";
                }
                if (c.endsWith("StreamThread") && m.equals("checkStateUpdater")) {
                    return "state-updater";
                }
                if ((c.endsWith("TaskExecutor") || c.endsWith("TaskManager")) && m.equals("punctuate")) {
                    return "punctuate";
                }
                if ((c.endsWith("TaskExecutor") || c.endsWith("TaskManager")) && m.equals("process")) {
                    return "process";
                }
            }
            return "other";
        }

        /** @return the innermost frame that says what the thread does, and whether it waits */
        static String frame(StackTraceElement[] st, Thread.State state) {
            boolean io = st.length > 0 && (st[0].getClassName().contains("EPoll") || st[0].getClassName().contains("Selector"));
            String wait = state == Thread.State.RUNNABLE && !io ? "run" : "wait";
            for (StackTraceElement e : st) {
                String c = e.getClassName();
                if (c.startsWith("io.capstream") || (c.startsWith("org.apache.kafka")
                        && !c.startsWith("org.apache.kafka.common.utils") && !c.startsWith("org.apache.kafka.common.metrics")
                        && !c.startsWith("org.apache.kafka.common.network") && !c.startsWith("org.apache.kafka.common.record")
                        && !c.startsWith("org.apache.kafka.common.internals") && !c.startsWith("org.apache.kafka.clients.NetworkClient")
                        && !c.startsWith("org.apache.kafka.common.protocol") && !c.startsWith("org.apache.kafka.common.serialization"))) {
                    return wait + " " + c.substring(c.lastIndexOf('.') + 1) + "." + e.getMethodName();
                }
            }
            return wait + " " + (st.length == 0 ? "?" : st[0].getClassName() + "." + st[0].getMethodName());
        }

        void print(String what, double wallS) {
            Snapshot a = atFirst, z = atEnd;
            if (a == null || z == null) {
                return;
            }
            System.out.printf("%s: breakdown, first commit to lag 0 (%.1f s wall):%n", what, wallS);
            System.out.printf("  stream threads: %.2f CPU s, %.2f s runnable waiting for a CPU (run queue), %d threads%n",
                    z.streamRun - a.streamRun, z.streamQueue - a.streamQueue, z.streamThreads);
            System.out.printf("  this process: %.2f CPU s (%s); broker: %.2f CPU s; machine: %.2f of %.2f CPU s busy%n",
                    z.processCpu - a.processCpu, delta(a.byKind, z.byKind), z.brokerCpu - a.brokerCpu,
                    z.machineBusy - a.machineBusy, z.machineTotal - a.machineTotal);
            int n;
            synchronized (this) {
                n = samples;
            }
            if (n > 0) {
                final int total = n;
                System.out.printf("  stream-thread samples (%d, every %d ms): %s%n", total, SAMPLE_MS,
                        byPhase.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                                .map(e -> String.format("%s %.0f%%", e.getKey(), 100.0 * e.getValue() / total))
                                .collect(Collectors.joining(", ")));
                byFrame.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(14)
                        .forEach(e -> System.out.printf("    %5.1f%% %s%n", 100.0 * e.getValue() / total, e.getKey()));
            }
            System.out.printf("  kafka streams: %s%n", z.metricsSince(a));
        }

        static String delta(Map<String, Double> a, Map<String, Double> z) {
            return z.entrySet().stream().map(e -> String.format("%s %.2f", e.getKey(), e.getValue() - a.getOrDefault(e.getKey(), 0.0)))
                    .collect(Collectors.joining(", "));
        }
    }

    /** CPU and Kafka Streams metric totals at one moment. */
    static final class Snapshot {
        double streamRun;
        double streamQueue;
        int streamThreads;
        double processCpu;
        Map<String, Double> byKind = new java.util.TreeMap<>();
        double brokerCpu;
        double machineBusy;
        double machineTotal;
        final Map<String, Double> totals = new java.util.TreeMap<>();
        final Map<String, Integer> counts = new java.util.TreeMap<>();

        /** Metric totals summed over threads/clients: name -> group. */
        static final String[][] SUMMED = {
                {"commit-total", "stream-thread-metrics"}, {"poll-total", "stream-thread-metrics"},
                {"process-total", "stream-thread-metrics"}, {"punctuate-total", "stream-thread-metrics"},
                {"blocked-time-ns-total", "stream-thread-metrics"},
                {"txn-commit-time-ns-total", "producer-metrics"}, {"txn-begin-time-ns-total", "producer-metrics"},
                {"txn-send-offsets-time-ns-total", "producer-metrics"}, {"flush-time-ns-total", "producer-metrics"},
                {"record-send-total", "producer-metrics"}, {"request-total", "producer-metrics"},
                {"fetch-total", "consumer-fetch-manager-metrics"}, {"records-consumed-total", "consumer-fetch-manager-metrics"},
                {"task-created-total", "stream-thread-metrics"}, {"task-closed-total", "stream-thread-metrics"},
                {"rebalance-total", "consumer-coordinator-metrics"},
        };

        Snapshot(Breakdown b) {
            long pid = ProcessHandle.current().pid();
            java.nio.file.Path tasks = java.nio.file.Path.of("/proc/self/task");
            try (var dirs = java.nio.file.Files.list(tasks)) {
                for (java.nio.file.Path t : dirs.toList()) {
                    try {
                        String comm = java.nio.file.Files.readString(t.resolve("comm")).trim();
                        if (comm.startsWith("bench-win") || comm.startsWith("bench-count")) {
                            String[] f = java.nio.file.Files.readString(t.resolve("schedstat")).trim().split(" ");
                            streamRun += Long.parseLong(f[0]) / 1e9;
                            streamQueue += Long.parseLong(f[1]) / 1e9;
                            streamThreads++;
                        }
                    } catch (java.io.IOException e) {
                        // gone
                    }
                }
            } catch (java.io.IOException e) {
                // none
            }
            try {
                processCpu = cpuSeconds(Long.toString(pid));
            } catch (java.io.IOException e) {
                processCpu = 0;
            }
            for (String kv : threadSplit(List.of(Long.toString(pid))).split(", ")) {
                String[] f = kv.split(" ");
                if (f.length == 2) {
                    byKind.put(f[0], Double.parseDouble(f[1]));
                }
            }
            String broker = System.getenv("BROKER_PID");
            if (broker != null && !broker.isEmpty()) {
                brokerCpu = cpuSeconds(List.of(broker));
            }
            try {
                String[] f = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim().split("\\s+");
                double total = 0;
                for (int i = 1; i < f.length; i++) {
                    total += Long.parseLong(f[i]);
                }
                machineTotal = total / 100.0;
                machineBusy = (total - Long.parseLong(f[4]) - Long.parseLong(f[5])) / 100.0; // less idle and iowait
            } catch (java.io.IOException e) {
                // none
            }
            for (var e : b.streams.metrics().entrySet()) {
                var name = e.getKey();
                for (String[] m : SUMMED) {
                    if (name.name().equals(m[0]) && name.group().equals(m[1]) && !name.tags().containsKey("topic")
                            && e.getValue().metricValue() instanceof Number v) {
                        totals.merge(m[0], v.doubleValue(), Double::sum);
                    }
                }
            }
        }

        String metricsSince(Snapshot a) {
            Map<String, Double> d = new java.util.TreeMap<>();
            totals.forEach((k, v) -> d.put(k, v - a.totals.getOrDefault(k, 0.0)));
            double commits = d.getOrDefault("commit-total", 0.0);
            StringBuilder s = new StringBuilder();
            s.append(String.format("%.0f commits, %.0f polls, %.0f records processed, %.0f punctuations; ", commits,
                    d.getOrDefault("poll-total", 0.0), d.getOrDefault("process-total", 0.0),
                    d.getOrDefault("punctuate-total", 0.0)));
            s.append(String.format("producer: txn commit %.2f s, txn begin %.2f s, send offsets %.2f s, flush %.2f s, "
                            + "%.0f records sent in %.0f requests; blocked on clients %.2f s; consumer: %.0f fetches, %.0f records",
                    d.getOrDefault("txn-commit-time-ns-total", 0.0) / 1e9, d.getOrDefault("txn-begin-time-ns-total", 0.0) / 1e9,
                    d.getOrDefault("txn-send-offsets-time-ns-total", 0.0) / 1e9, d.getOrDefault("flush-time-ns-total", 0.0) / 1e9,
                    d.getOrDefault("record-send-total", 0.0), d.getOrDefault("request-total", 0.0),
                    d.getOrDefault("blocked-time-ns-total", 0.0) / 1e9,
                    d.getOrDefault("fetch-total", 0.0), d.getOrDefault("records-consumed-total", 0.0)));
            s.append(String.format("; tasks created %.0f, closed %.0f, rebalances %.0f (since the start: %.0f, %.0f, %.0f)",
                    d.getOrDefault("task-created-total", 0.0), d.getOrDefault("task-closed-total", 0.0),
                    d.getOrDefault("rebalance-total", 0.0), totals.getOrDefault("task-created-total", 0.0),
                    totals.getOrDefault("task-closed-total", 0.0), totals.getOrDefault("rebalance-total", 0.0)));
            return s.toString();
        }
    }
}
