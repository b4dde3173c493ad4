package io.capstream.cli.up;

import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.loadgen.sim.SimEngine;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The services of {@code capstream up}: the embedded KRaft broker on a fixed loopback port, a real
 * Apicurio Registry 2.6.13 child process (Confluent-compatible API), every capstream topic, and
 * optionally the simulated engine. {@link #close()} stops them in reverse order (the registry child
 * process is destroyed and waited for) and may be called from a shutdown hook; it is idempotent and
 * thread-safe.
 */
public final class UpStack implements AutoCloseable {
    private final List<AutoCloseable> closers = new ArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final PrintStream log;
    private String bootstrapServers;
    private String schemaRegistryUrl;
    private String simBaseUrl;
    private Set<String> createdTopics = Set.of();
    private boolean closing;

    private UpStack(PrintStream log) {
        this.log = log;
    }

    /**
     * Starts everything; on failure stops what was started and rethrows.
     *
     * @param cfg what to start; never null
     * @param log progress lines (stderr); never null
     * @return the running stack
     * @throws IllegalStateException when a port is in use
     * @throws Exception when a service cannot start (broker, registry timeout, engine)
     */
    public static UpStack start(UpConfig cfg, PrintStream log) throws Exception {
        requireFree(cfg.kafkaPort(), "--kafka-port", "Kafka");
        requireFree(cfg.registryPort(), "--registry-port", "the schema registry");
        if (cfg.sim() != null) {
            requireFree(cfg.sim().port(), "--sim-port", "the simulated engine");
        }
        UpStack stack = new UpStack(log);
        try {
            stack.startParts(cfg);
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    private static void requireFree(int port, String option, String what) {
        if (!Ports.isFree(port)) {
            throw new IllegalStateException("port " + port + " on 127.0.0.1 is already in use, so " + what
                    + " cannot listen on it (is another capstream up or a broker running?). Stop that process or choose"
                    + " another port with " + option + " PORT.");
        }
    }

    private void startParts(UpConfig cfg) throws Exception {
        long t0 = System.nanoTime();
        log.println("capstream up: starting embedded Kafka on 127.0.0.1:" + cfg.kafkaPort() + " ...");
        EmbeddedKafka broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults().withPort(cfg.kafkaPort())
                .withDataDir(cfg.dataDir()));
        add(broker);
        bootstrapServers = broker.bootstrapServers();
        createdTopics = TopicSetup.ensureTopics(bootstrapServers, Map.of(), cfg.eventPartitions());
        log.println("capstream up: Kafka ready at " + bootstrapServers + " (topics created: "
                + (createdTopics.isEmpty() ? "none, all existed" : String.join(", ", createdTopics)) + ")");

        log.println("capstream up: starting Apicurio Registry on 127.0.0.1:" + cfg.registryPort() + " (child process) ...");
        schemaRegistryUrl = RegistryProcess.start(cfg, this::add);
        log.println("capstream up: schema registry ready at " + schemaRegistryUrl);

        if (cfg.sim() != null) {
            Vertx vertx = Vertx.vertx();
            add(() -> vertx.close().await(10, TimeUnit.SECONDS));
            SimEngine sim = SimEngine.start(vertx, cfg.sim()).await(30, TimeUnit.SECONDS);
            add(sim);
            simBaseUrl = sim.baseUrl();
            log.println("capstream up: simulated engine (capstream-sim) at " + simBaseUrl);
        }
        log.printf("capstream up: started in %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }

    private synchronized void add(AutoCloseable closer) {
        closers.add(closer);
    }

    /** @return e.g. {@code 127.0.0.1:9092} */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** @return e.g. {@code http://127.0.0.1:8081/apis/ccompat/v7} */
    public String schemaRegistryUrl() {
        return schemaRegistryUrl;
    }

    /** @return the simulated engine's base URL ({@code http://127.0.0.1:PORT/v1}), or null */
    public String simBaseUrl() {
        return simBaseUrl;
    }

    /** @return topics this start created (empty when they all existed in a kept data directory) */
    public Set<String> createdTopics() {
        return createdTopics;
    }

    /**
     * Blocks until {@link #close()} has finished.
     *
     * @throws InterruptedException when interrupted
     */
    public void awaitClosed() throws InterruptedException {
        closed.await();
    }

    /** Stops the engine, the registry child process and the broker, in reverse start order. Idempotent. */
    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
            toClose = new ArrayList<>(closers);
            closers.clear();
        }
        if (!toClose.isEmpty()) {
            log.println("capstream up: stopping ...");
        }
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (Exception e) {
                log.println("capstream up: while stopping: " + e);
            }
        }
        if (!toClose.isEmpty()) {
            log.println("capstream up: stopped");
        }
        closed.countDown();
    }
}
