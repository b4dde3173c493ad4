package io.capstream.cli.embedded;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka 4.4 broker running in this JVM: one KRaft node that is both controller and broker,
 * listening on 127.0.0.1 only. {@link #start(EmbeddedKafkaConfig)} formats the storage, starts the
 * node and returns once the broker answers a metadata request; {@link #close()} shuts it down, waits
 * for its (non-daemon) threads to end, and deletes the temp directory.
 *
 * <p>Settings suit one broker: every internal topic (consumer offsets, transaction state, share
 * state) has replication factor 1 and min ISR 1, so transactions and exactly-once Streams work; the
 * initial group rebalance delay is 0; the log cleaner's dedupe buffer is 2 MiB instead of 128 MiB.
 *
 * <p>Thread safety: {@link #close()} may be called from any thread and more than once.
 */
public final class EmbeddedKafka implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final int NODE_ID = 1;
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    /** How long {@link #start} waits for the broker to answer, ms. */
    private static final long READY_TIMEOUT_MS = 60_000;

    private final KafkaRaftServer server;
    private final int port;
    private final Path dir;
    private final boolean deleteOnClose;
    private boolean closed;

    private EmbeddedKafka(KafkaRaftServer server, int port, Path dir, boolean deleteOnClose) {
        this.server = server;
        this.port = port;
        this.dir = dir;
        this.deleteOnClose = deleteOnClose;
    }

    /**
     * Formats storage, starts the broker and waits until it serves requests (typically 2-5 s).
     *
     * @param config port, data directory and overrides; never null
     * @return the running broker; close it to stop it
     * @throws IllegalStateException when the broker cannot start (port in use, bad override, ...);
     *                               everything started so far is stopped and temp files deleted
     */
    public static EmbeddedKafka start(EmbeddedKafkaConfig config) {
        Path dir;
        boolean temp = config.dataDir() == null;
        try {
            dir = temp ? Files.createTempDirectory("capstream-kafka-") : Files.createDirectories(config.dataDir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the embedded broker's data directory", e);
        }
        KafkaRaftServer server = null;
        try {
            int brokerPort = config.port() == 0 ? freePort() : config.port();
            int controllerPort = freePort();
            Map<String, String> props = brokerProperties(dir, brokerPort, controllerPort);
            props.putAll(config.brokerProperties());
            KafkaConfig kafkaConfig = new KafkaConfig(props, false);
            format(kafkaConfig, dir);
            server = new KafkaRaftServer(kafkaConfig, Time.SYSTEM);
            server.startup();
            EmbeddedKafka kafka = new EmbeddedKafka(server, brokerPort, dir, temp);
            kafka.awaitReady();
            LOG.info("embedded Kafka broker listening on {} (data in {})", kafka.bootstrapServers(), dir);
            return kafka;
        } catch (RuntimeException | Error e) {
            stopQuietly(server);
            if (temp) {
                deleteRecursively(dir);
            }
            throw new IllegalStateException("embedded Kafka broker failed to start: " + e.getMessage(), e);
        }
    }

    /** @return {@code 127.0.0.1:<port>}, for {@code bootstrap.servers} */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** @return the broker's PLAINTEXT port */
    public int port() {
        return port;
    }

    /** @return the directory holding the broker's logs (deleted on close when it was a temp directory) */
    public Path dataDir() {
        return dir;
    }

    /**
     * Stops the broker and controller, waits for their threads to end, and deletes the temp
     * directory. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopQuietly(server);
        if (deleteOnClose) {
            deleteRecursively(dir);
        }
        LOG.info("embedded Kafka broker on port {} stopped", port);
    }

    private void awaitReady() {
        Map<String, Object> adminProps = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) READY_TIMEOUT_MS);
        try (Admin admin = Admin.create(adminProps)) {
            int brokers = admin.describeCluster().nodes().get(READY_TIMEOUT_MS, TimeUnit.MILLISECONDS).size();
            if (brokers < 1) {
                throw new IllegalStateException("broker not registered after " + READY_TIMEOUT_MS + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        } catch (Exception e) {
            throw new IllegalStateException("broker did not answer within " + READY_TIMEOUT_MS + " ms: " + e, e);
        }
    }

    static Map<String, String> brokerProperties(Path dir, int brokerPort, int controllerPort) {
        Map<String, String> p = new HashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + "," + CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", dir.resolve("data").toString());
        p.put("metadata.log.dir", dir.resolve("metadata").toString());
        // One broker: every internal topic with RF 1 / min ISR 1 so transactions and EOS work.
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        // The default 128 MiB dedupe buffer is far too much for an embedded broker.
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(2 * 1024 * 1024));
        p.put("log.cleaner.threads", "1");
        // Modest thread counts for small machines.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("background.threads", "4");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("auto.create.topics.enable", "true");
        p.put("num.partitions", "1");
        return p;
    }

    private static void format(KafkaConfig config, Path dir) {
        try {
            Formatter formatter = new Formatter()
                    .setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
                    .setNodeId(NODE_ID)
                    .setClusterId(existingClusterId(dir).orElseGet(() -> Uuid.randomUuid().toString()))
                    .setIgnoreFormatted(true)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(dir.resolve("metadata").toString());
            formatter.addDirectory(dir.resolve("data").toString());
            formatter.addDirectory(dir.resolve("metadata").toString());
            formatter.run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the broker storage in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The cluster id of a data directory formatted by an earlier start, if any. */
    private static Optional<String> existingClusterId(Path dir) {
        for (String sub : new String[] {"metadata", "data"}) {
            Path meta = dir.resolve(sub).resolve("meta.properties");
            if (Files.isRegularFile(meta)) {
                Properties props = new Properties();
                try (Reader in = Files.newBufferedReader(meta)) {
                    props.load(in);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read " + meta, e);
                }
                String id = props.getProperty("cluster.id");
                if (id != null && !id.isBlank()) {
                    return Optional.of(id);
                }
            }
        }
        return Optional.empty();
    }

    private static void stopQuietly(KafkaRaftServer server) {
        if (server == null) {
            return;
        }
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("error while stopping the embedded broker", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /**
     * Deletes {@code root} and everything below it with Kafka's {@link Utils#delete(java.io.File)};
     * a missing directory is no error. A failure (the first file that cannot be deleted stops the
     * walk) is logged as a warning and otherwise ignored: a leftover temp directory must not fail a
     * start or a close.
     *
     * @param root the directory to delete; null does nothing
     */
    static void deleteRecursively(Path root) {
        if (root == null) {
            return;
        }
        try {
            Utils.delete(root.toFile());
        } catch (IOException e) {
            LOG.warn("cannot delete {}: {}", root, e.toString());
        }
    }

    /** @return a readable summary for logs */
    @Override
    public String toString() {
        return "EmbeddedKafka[" + bootstrapServers() + ", dir=" + dir + "]";
    }
}
