package io.capstream.aggregator.events;

import io.capstream.schemas.registry.HttpSchemaRegistryClient;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.registry.SchemaRegistryClients;
import io.capstream.schemas.registry.SchemaRegistryUnavailableException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the schema registry every {@link #DEFAULT_PERIOD} whether it answers ({@code GET /subjects},
 * one HTTP request of at most {@link #MAX_REQUEST_TIMEOUT}) and reports the result to
 * {@link RegistryHealth} under the reporter {@value #REPORTER}: {@code /ready} is then false while
 * the registry is unreachable even when no record is waiting for it (an idle aggregator, or one
 * whose stream thread gave up a hold and is being replaced), and true again after the first probe
 * that gets an answer. Any answer counts as reachable, also a 4xx (e.g. 401): only "no answer"
 * ({@link SchemaRegistryUnavailableException}) is an outage. The probe logs a WARN when the registry
 * stops answering and an INFO when it answers again, not at every probe. Thread-safe; probes are
 * meant to run one at a time (the schedule of {@link #start}, or a test calling {@link #probeOnce()}).
 */
public final class RegistryProbe implements AutoCloseable {
    /** Reporter name in {@link RegistryHealth}. */
    public static final String REPORTER = "probe";
    /** Default time between two probes: 5 s. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(5);
    /** Longest one probe waits for an answer: 5 s (less when the client's own timeout is shorter). */
    public static final Duration MAX_REQUEST_TIMEOUT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(RegistryProbe.class);

    /** One look at the registry: returns when it answered, throws when it did not. */
    @FunctionalInterface
    public interface Check {
        /**
         * @throws SchemaRegistryUnavailableException when the registry gave no answer
         * @throws RuntimeException                   (any other) when it answered something unusable
         */
        void run();
    }

    private final Check check;
    private final RegistryHealth health;
    private ScheduledExecutorService scheduler;
    private volatile boolean down;

    /**
     * @param check  how to ask the registry; not null
     * @param health where the result goes; not null
     */
    public RegistryProbe(Check check, RegistryHealth health) {
        this.check = Objects.requireNonNull(check, "check");
        this.health = Objects.requireNonNull(health, "health");
    }

    /**
     * A probe of the registry at {@code registryUrl}.
     *
     * @param registryUrl registry URL; not null
     * @param client      registry client settings (credentials, timeout); not null
     * @param health      where the result goes; not null
     * @return the probe, or null for a {@code mock://} registry (in memory: always answers)
     */
    public static RegistryProbe forUrl(String registryUrl, RegistryClientConfig client, RegistryHealth health) {
        if (registryUrl.startsWith(SchemaRegistryClients.MOCK_PREFIX)) {
            return null;
        }
        Duration timeout = client.requestTimeout().compareTo(MAX_REQUEST_TIMEOUT) < 0 ? client.requestTimeout()
                : MAX_REQUEST_TIMEOUT;
        HttpSchemaRegistryClient http = HttpSchemaRegistryClient.create(registryUrl,
                client.withMaxRetries(0).withRequestTimeout(timeout));
        return new RegistryProbe(http::subjects, health);
    }

    /**
     * Asks the registry once and reports the result.
     *
     * @return true when the registry answered
     */
    public boolean probeOnce() {
        try {
            check.run();
        } catch (RuntimeException e) {
            SchemaRegistryUnavailableException outage = SchemaRegistryUnavailableException.in(e);
            if (outage != null) {
                health.unreachable(REPORTER, outage.getMessage());
                if (!down) {
                    LOG.warn("schema registry unreachable; /ready is false until it answers: {}", outage.getMessage());
                }
                down = true;
                return false;
            }
            // an answer, if not a useful one (e.g. 401): the registry is up; the decoders report their own errors
        }
        health.answered(REPORTER);
        if (down) {
            LOG.info("schema registry answers again");
        }
        down = false;
        return true;
    }

    /**
     * Probes now and then every {@code period} on a daemon thread of its own, until {@link #close()}.
     *
     * @param period time between the end of one probe and the start of the next; positive
     * @return this
     * @throws IllegalStateException when already started
     */
    public synchronized RegistryProbe start(Duration period) {
        if (scheduler != null) {
            throw new IllegalStateException("already started");
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "capstream-registry-probe");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::probeSafely, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void probeSafely() {
        try {
            probeOnce();
        } catch (RuntimeException e) {
            LOG.warn("schema registry probe failed: {}", e.toString()); // keep the schedule alive
        }
    }

    /** Stops probing and withdraws this probe's report from {@link RegistryHealth}. */
    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
        health.answered(REPORTER);
    }
}
