package io.capstream.cli.up;

import io.capstream.schemas.time.CapClock;
import io.capstream.cli.embedded.EmbeddedKafka;
import io.capstream.cli.embedded.EmbeddedKafkaConfig;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.cli.signals.ForcedExit;
import io.capstream.cli.stack.ApicurioRegistry;
import io.capstream.loadgen.sim.SimEngine;
import io.vertx.core.Vertx;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The services of {@code capstream up}: the embedded KRaft broker on a fixed loopback port, a real
 * Apicurio Registry 2.6.13 child process (Confluent-compatible API), every capstream topic, and
 * optionally the simulated engine. {@link #close()} stops them in reverse order (the registry child
 * process is destroyed and waited for) and may be called from a shutdown hook; it is idempotent and
 * thread-safe. The registry child is supervised: when it dies (e.g. {@code kill -9}), the stack stops
 * and {@link #failure()} says why ({@link #watch}). A port in use is named with the process holding it
 * ({@link PortHolder}).
 */
public final class UpStack implements AutoCloseable {
    private final List<AutoCloseable> closers = new ArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final PrintStream log;
    /** The clock of the start-up time said in the log. */
    private final CapClock clock = CapClock.system();
    private String bootstrapServers;
    private String schemaRegistryUrl;
    private String simBaseUrl;
    private Set<String> createdTopics = Set.of();
    private boolean closing;
    private String failure;

    /** For tests: a stack that has started nothing and logs to {@code log}. */
    static UpStack forTest(PrintStream log) {
        return new UpStack(log);
    }

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
            if (stack.failure() != null) {
                throw new IllegalStateException(stack.failure()); // the registry died while the rest started
            }
            return stack;
        } catch (Exception | Error e) {
            stack.close();
            throw e;
        }
    }

    private static void requireFree(int port, String option, String what) {
        if (!Ports.isFree(port)) {
            throw new IllegalStateException(portInUse(port, option, what, PortHolder.find(port).orElse(null)));
        }
    }

    /**
     * @param port   the port in use
     * @param option the option that chooses it, e.g. {@code --registry-port}
     * @param what   the service that needs it, e.g. {@code the schema registry}
     * @param holder the process found listening on it ({@link PortHolder}), or null when unknown
     * @return the one-line usage error: the port, the service, the holder's PID and command line when
     *         known (named as an orphaned registry of an earlier {@code up} when it is one), what to do
     */
    static String portInUse(int port, String option, String what, PortHolder.Holder holder) {
        return "port " + port + " on 127.0.0.1 is already in use, so " + what + " cannot listen on it"
                + (holder == null ? " (is another capstream up or a broker running?)." : "." + PortHolder.describe(holder))
                + " Stop that process or choose another port with " + option + " PORT.";
    }

    private void startParts(UpConfig cfg) throws Exception {
        long t0 = clock.nanoTime();
        log.println("capstream up: starting embedded Kafka on 127.0.0.1:" + cfg.kafkaPort() + " ...");
        EmbeddedKafka broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults().withPort(cfg.kafkaPort())
                .withDataDir(cfg.dataDir()));
        add(broker);
        bootstrapServers = broker.bootstrapServers();
        createdTopics = TopicSetup.ensureTopics(bootstrapServers, Map.of(), cfg.eventPartitions());
        log.println("capstream up: Kafka ready at " + bootstrapServers + " (topics created: "
                + (createdTopics.isEmpty() ? "none, all existed" : String.join(", ", createdTopics)) + ")");

        log.println("capstream up: starting Apicurio Registry on 127.0.0.1:" + cfg.registryPort() + " (child process) ...");
        ApicurioRegistry registry = RegistryProcess.start(cfg, this::add);
        schemaRegistryUrl = registry.ccompatUrl();
        log.println("capstream up: schema registry ready at " + schemaRegistryUrl + " (child process " + registry.pid() + ")");
        watch(registry.pid(), registry.unexpectedExit(), registry::lastOutput);

        if (cfg.sim() != null) {
            Vertx vertx = Vertx.vertx();
            add(() -> vertx.close().await(10, TimeUnit.SECONDS));
            SimEngine sim = SimEngine.start(vertx, cfg.sim()).await(30, TimeUnit.SECONDS);
            add(sim);
            simBaseUrl = sim.baseUrl();
            log.println("capstream up: simulated engine (capstream-sim) at " + simBaseUrl);
        }
        log.printf("capstream up: started in %.1f s%n", (clock.nanoTime() - t0) / 1e9);
    }

    /**
     * Supervises a child process: when it exits without having been asked to ({@code exit} completes
     * with its exit code), the whole stack stops with that reason ({@link #failure()}), since every
     * other capstream process would fail its pre-flight against it. Not restarted: a registry without
     * {@code --data-dir} keeps its schemas in memory, and a new one would number them anew, so that the
     * records already on the topics would no longer decode, or decode with the wrong schema.
     *
     * @param pid        the child's process id (for the message)
     * @param exit       completes with the exit code when the child exits unexpectedly; never when it is stopped
     * @param lastOutput the child's last output lines, for the message
     */
    void watch(long pid, CompletableFuture<Integer> exit, Supplier<String> lastOutput) {
        exit.thenAccept(code -> {
            synchronized (this) {
                if (closing) {
                    return;
                }
                String tail = lastOutput.get();
                failure = "the schema registry (child process " + pid + ") exited unexpectedly with code " + code
                        + (code > 128 ? " (killed by signal " + (code - 128) + ")" : "")
                        + "; the stack is useless without it, so capstream up stops (start it again to get a new one)";
                log.println("capstream up: " + failure + (tail.isBlank() ? "" : ". Its last output:\n" + tail));
            }
            close();
        });
    }

    /**
     * @return why the stack stopped by itself (a child process died), or null when it was stopped
     *         (Ctrl-C, SIGTERM, {@link #close()}) or still runs
     */
    public synchronized String failure() {
        return failure;
    }

    /** Keeps {@code closer} for {@link #close()}; closes it at once when the stack is already stopping. */
    private void add(AutoCloseable closer) {
        synchronized (this) {
            if (!closing) {
                closers.add(closer);
                return;
            }
        }
        try {
            closer.close();
        } catch (Exception e) {
            log.println("capstream up: while stopping: " + e);
        }
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

    /**
     * Waits until {@link #close()} has finished, at most {@code timeout}.
     *
     * @param timeout longest wait; not null
     * @return true when closed
     * @throws InterruptedException when interrupted
     */
    public boolean awaitClosed(java.time.Duration timeout) throws InterruptedException {
        return closed.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
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
            log.println("capstream up: stopping ..." + ForcedExit.hint());
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
