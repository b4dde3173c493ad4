package io.capstream.aggregator.runtime;

import io.capstream.aggregator.events.RegistryOutageThreadHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;

/**
 * The one owner of an in-process Kafka Streams application of capstream (the {@code aggregate}
 * service, and the report topology of {@code run}, {@code import} and {@code replay}): it builds
 * the client, installs {@link RegistryOutageThreadHandler#elseShutdownClient()} (a stream thread
 * stopped by a schema registry outage is replaced and reads on from the last commit; anything else
 * shuts the application down) and a {@link StreamsStateTracker}, starts it, waits for
 * {@code RUNNING}, tells why it failed, and closes it: leaving its consumer group at once, then
 * optionally {@link KafkaStreams#cleanUp()}, then deleting its temporary state directory.
 *
 * <p>Lifecycle: {@link #create} (state {@code CREATED}; {@link #streams()} may be handed to
 * queries and metrics), {@link #start()}, {@link #awaitRunning}, {@link #close()}. Thread-safe.
 */
public final class StreamsRuntime implements AutoCloseable {
    /** Prefix of the temporary state directories under {@code java.io.tmpdir}. */
    public static final String TEMP_STATE_DIR_PREFIX = "capstream-streams-";
    /** Kafka Streams' directory of the global stores under {@code <state dir>/<application id>}. */
    static final String GLOBAL_DIR = "global";

    private final KafkaStreams streams;
    private final StreamsStateTracker tracker;
    private final Options options;
    private final Path tempStateDir;
    private boolean closed;
    private volatile boolean closeCompleted;

    /**
     * How a {@link StreamsRuntime} treats its application.
     *
     * @param name           what runs, in messages (e.g. {@code "report aggregator"}); not null
     * @param tempStateDir   when the settings have no state directory: use a new temporary directory
     *                       ({@value #TEMP_STATE_DIR_PREFIX}*) and delete it on close (false: Streams' default
     *                       directory, kept)
     * @param cleanUpOnClose call {@link KafkaStreams#cleanUp()} (delete the application's local state) after a
     *                       close that completed within the timeout
     * @param closeTimeout   bound of {@link KafkaStreams#close(CloseOptions)}; positive; not null
     * @param listener       told of every state transition (after the runtime's own tracking), or null
     */
    public record Options(String name, boolean tempStateDir, boolean cleanUpOnClose, Duration closeTimeout,
                          KafkaStreams.StateListener listener) {
        /** Default bound of the close, 30 s: long enough to commit and leave the group. */
        public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);

        /** Validates. */
        public Options {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(closeTimeout, "closeTimeout");
            if (closeTimeout.isNegative() || closeTimeout.isZero()) {
                throw new IllegalArgumentException("closeTimeout must be positive: " + closeTimeout);
            }
        }

        /**
         * @param name what runs, in messages; not null
         * @return options with no temporary state directory, no clean-up, a {@link #DEFAULT_CLOSE_TIMEOUT} close
         *         and no listener
         */
        public static Options named(String name) {
            return new Options(name, false, false, DEFAULT_CLOSE_TIMEOUT, null);
        }

        /** @return a copy whose application gets a temporary state directory when the settings name none */
        public Options withTempStateDir() {
            return new Options(name, true, cleanUpOnClose, closeTimeout, listener);
        }

        /**
         * @param cleanUp whether to delete the application's local state after closing
         * @return a copy with this clean-up choice
         */
        public Options withCleanUpOnClose(boolean cleanUp) {
            return new Options(name, tempStateDir, cleanUp, closeTimeout, listener);
        }

        /**
         * @param timeout bound of the close; positive
         * @return a copy with this close timeout
         */
        public Options withCloseTimeout(Duration timeout) {
            return new Options(name, tempStateDir, cleanUpOnClose, timeout, listener);
        }

        /**
         * @param l told of every state transition; null for none
         * @return a copy with this listener
         */
        public Options withListener(KafkaStreams.StateListener l) {
            return new Options(name, tempStateDir, cleanUpOnClose, closeTimeout, l);
        }
    }

    private StreamsRuntime(KafkaStreams streams, StreamsStateTracker tracker, Options options, Path tempStateDir) {
        this.streams = streams;
        this.tracker = tracker;
        this.options = options;
        this.tempStateDir = tempStateDir;
    }

    /**
     * Builds the client (not started) with capstream's uncaught-exception handler and state tracking.
     *
     * @param topology the topology; not null
     * @param settings the application's settings; a null {@link StreamsSettings#stateDir()} means a temporary
     *                 directory with {@link Options#tempStateDir()}; not null
     * @param options  how to treat the application; not null
     * @return the runtime, state {@code CREATED}
     * @throws UncheckedIOException when the temporary state directory cannot be created
     * @throws org.apache.kafka.common.KafkaException when the settings are invalid (the temporary directory is
     *         deleted again)
     */
    public static StreamsRuntime create(Topology topology, StreamsSettings settings, Options options) {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(options, "options");
        Path temp = null;
        StreamsSettings effective = settings;
        if (settings.stateDir() == null && options.tempStateDir()) {
            try {
                temp = Files.createTempDirectory(TEMP_STATE_DIR_PREFIX);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a Kafka Streams state directory", e);
            }
            effective = new StreamsSettings(settings.applicationId(), settings.bootstrapServers(), temp,
                    settings.commitIntervalMs(), settings.streamThreads(), settings.replicationFactor(),
                    settings.cacheMaxBytes(), settings.extra());
        }
        if (settings.stateDir() != null) {
            wipeGlobalStores(settings.stateDir().resolve(settings.applicationId()).resolve(GLOBAL_DIR));
        }
        try {
            KafkaStreams streams = new KafkaStreams(topology, effective.toProperties());
            StreamsStateTracker tracker = new StreamsStateTracker(options.name(), options.listener());
            streams.setUncaughtExceptionHandler(RegistryOutageThreadHandler.elseShutdownClient());
            streams.setStateListener(tracker);
            return new StreamsRuntime(streams, tracker, options, temp);
        } catch (RuntimeException | Error e) {
            deleteQuietly(temp, e);
            throw e;
        }
    }

    /**
     * Starts the stream threads; returns at once ({@link #awaitRunning} waits).
     *
     * @throws IllegalStateException when already started or closed
     */
    public void start() {
        streams.start();
    }

    /**
     * Waits until the application reaches {@code RUNNING} for the first time.
     *
     * @param timeout how long to wait; not null
     * @throws StreamsStartException when it stopped or failed first, or the timeout passed
     * @throws InterruptedException  when interrupted while waiting
     */
    public void awaitRunning(Duration timeout) throws InterruptedException {
        KafkaStreams.State settled = tracker.awaitSettled(timeout);
        if (settled == null) {
            throw new StreamsStartException(options.name(), streams.state(), true, timeout);
        }
        if (settled != KafkaStreams.State.RUNNING) {
            throw new StreamsStartException(options.name(), streams.state(), false, timeout);
        }
    }

    /**
     * Waits until the application stops by itself (error or shutdown) or is closed.
     *
     * @param timeout how long to wait; not null
     * @return true when it stopped (or was closed) within the timeout
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return tracker.awaitStopped(timeout);
    }

    /** @return the current Kafka Streams state; never null */
    public KafkaStreams.State state() {
        return streams.state();
    }

    /**
     * @return why the application stopped by itself ({@code "the <name> stopped (Kafka Streams state ERROR, see
     *         the log above)"}), or null while it runs
     */
    public String failure() {
        return tracker.failure();
    }

    /**
     * @return true once {@link #close()} has returned with Kafka Streams closed within {@link Options#closeTimeout()};
     *         false before, or when the close ran out of time (its threads still committing, e.g. to a broker that
     *         has gone)
     */
    public boolean closeCompleted() {
        return closeCompleted;
    }

    /** @return the Kafka Streams client, for interactive queries and metrics; do not close it directly */
    public KafkaStreams streams() {
        return streams;
    }

    /** @return the temporary state directory this runtime deletes on close, or null when it has none */
    public Path tempStateDir() {
        return tempStateDir;
    }

    /**
     * Closes the application (leaving its consumer group at once, so that another member takes over
     * its partitions without waiting for the session timeout and a throwaway group can be deleted),
     * bounded by {@link Options#closeTimeout()}; then, when configured and the close completed,
     * {@link KafkaStreams#cleanUp()}; then deletes the temporary state directory. Idempotent; a
     * second caller waits for the first.
     *
     * @throws UncheckedIOException when the temporary state directory cannot be deleted (the
     *         application is closed all the same)
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            boolean done = streams.close(CloseOptions
                    .groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(options.closeTimeout()));
            closeCompleted = done;
            if (done && options.cleanUpOnClose()) {
                streams.cleanUp();
            }
        } finally {
            tracker.markClosed();
            if (tempStateDir != null) {
                try {
                    Utils.delete(tempStateDir.toFile());
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete the Kafka Streams state directory " + tempStateDir, e);
                }
            }
        }
    }

    /**
     * Deletes the global stores' local copies, which Kafka Streams rebuilds from their source topics at start. Why:
     * after kill -9 under exactly-once, Kafka Streams 4.4 finds the global RocksDB store corrupted, and its global
     * thread does not handle that (KAFKA-21034, apache/kafka#23390 open): the client went to ERROR at every restart on
     * that state directory (seen with {@code bench/windows/restore.sh}, {@code SAME_STATE=1}).
     *
     * @param global {@code <state dir>/<application id>/global}; need not exist
     * @throws UncheckedIOException when it cannot be deleted
     */
    private static void wipeGlobalStores(Path global) {
        try {
            Utils.delete(global.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the global stores' state " + global, e);
        }
    }

    private static void deleteQuietly(Path dir, Throwable cause) {
        if (dir == null) {
            return;
        }
        try {
            Utils.delete(dir.toFile());
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }
}
