package io.capstream.bench;

import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Benchmark (run by hand, see bench/broker-startup/run.sh): time from
 * {@link EmbeddedKafka#start} to the first acknowledged send (acks=all, topic auto-created), over
 * repetitions in one JVM (the first includes class loading and JIT warm-up, as a CLI start does;
 * later ones are warm). Prints each repetition ("RESULT total_ms start_ms jvm_cpu_ms" lines for the script) and
 * min / median / max in ms.
 */
public final class BrokerStartupBench {
    private BrokerStartupBench() {
    }

    /**
     * @param args optional: number of repetitions (default 5)
     * @throws Exception when the broker fails
     */
    public static void main(String[] args) throws Exception {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        List<Long> total = new ArrayList<>();
        List<Long> startOnly = new ArrayList<>();
        for (int i = 1; i <= reps; i++) {
            long t0 = System.nanoTime();
            try (EmbeddedKafka kafka = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults())) {
                long started = System.nanoTime();
                try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                        ProducerConfig.ACKS_CONFIG, "all",
                        ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                    p.send(new ProducerRecord<>("bench", "k", "v")).get(60, TimeUnit.SECONDS);
                }
                long acked = System.nanoTime();
                long ms = TimeUnit.NANOSECONDS.toMillis(acked - t0);
                long startMs = TimeUnit.NANOSECONDS.toMillis(started - t0);
                total.add(ms);
                startOnly.add(startMs);
                System.out.printf("rep %d: start() %d ms, first acknowledged send at %d ms%n", i, startMs, ms);
                long cpuMs = cpuMillis();
                System.out.printf("RESULT %d %d %d%n", ms, startMs, cpuMs);
            }
        }
        System.out.printf("start to first acked send over %d reps: min %d ms, median %d ms, max %d ms%n",
                reps, min(total), median(total), max(total));
        System.out.printf("start() alone:                          min %d ms, median %d ms, max %d ms%n",
                min(startOnly), median(startOnly), max(startOnly));
    }

    /** @return CPU time this JVM used so far (all threads, incl. JIT and GC), ms; -1 when unknown */
    private static long cpuMillis() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return TimeUnit.NANOSECONDS.toMillis(sun.getProcessCpuTime());
        }
        return -1;
    }

    private static long min(List<Long> v) {
        return Collections.min(v);
    }

    private static long max(List<Long> v) {
        return Collections.max(v);
    }

    private static long median(List<Long> v) {
        List<Long> s = new ArrayList<>(v);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
