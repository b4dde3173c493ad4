package io.capstream.aggregator.events;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether the schema registry answers the events decoder: each decoder (one per stream task,
 * {@link EventsSource}) reports here when a registry call of its gets no answer and when the
 * registry answers again; readiness ({@code /ready}) reads {@link #problem()}. One instance per
 * aggregator, shared through {@link EventsSourceConfig}; thread-safe (decoders on several stream
 * threads report concurrently, the HTTP API reads).
 *
 * <p>Each reporter (a stream task id, e.g. {@code 0_1}) has its own entry, so a task whose schemas
 * are all cached cannot clear the outage another task is waiting out; the registry counts as
 * reachable when no reporter has an outage open.
 */
public final class RegistryHealth {
    /** Prefix of {@link #problem()}. */
    public static final String UNREACHABLE = "schema registry unreachable: ";

    private final Map<String, String> outages = new ConcurrentHashMap<>();

    /**
     * Records that a registry call of {@code reporter} got no answer.
     *
     * @param reporter who reports (a stream task id); not null
     * @param reason   the registry error, e.g. {@code schema registry GET http://r:8081/schemas/ids/3
     *                 failed: ConnectException}; not null
     */
    public void unreachable(String reporter, String reason) {
        outages.put(reporter, reason);
    }

    /**
     * Records that the registry answered {@code reporter} again, or that {@code reporter} stopped
     * (its task was closed). Does nothing when it had no outage open.
     *
     * @param reporter who reports; not null
     */
    public void answered(String reporter) {
        outages.remove(reporter);
    }

    /**
     * @return null while every reporter's registry calls are answered, else
     *         {@code "schema registry unreachable: <reason>"} with the reason one reporter gave
     */
    public String problem() {
        for (String reason : outages.values()) {
            return UNREACHABLE + reason;
        }
        return null;
    }

    /** @return whether no reporter has an outage open ({@link #problem()} is null) */
    public boolean reachable() {
        return outages.isEmpty();
    }

    @Override
    public String toString() {
        String p = problem();
        return "RegistryHealth[" + (p == null ? "reachable" : p) + "]";
    }
}
