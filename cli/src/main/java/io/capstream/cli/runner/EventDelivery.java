package io.capstream.cli.runner;

/**
 * {@code run --event-delivery}: when a run's events go to Kafka.
 *
 * <ul>
 *   <li>{@link #LIVE}: as they come (consumers of a shared Kafka see the run live; a crash loses nothing sent).</li>
 *   <li>{@link #DEFERRED}: held in memory until the last request has ended
 *       ({@link io.capstream.loadgen.emit.DeferredEventSink}), so that an in-process broker and
 *       aggregator do no work while requests are in flight.</li>
 *   <li>{@link #AUTO}: deferred with the embedded broker (whose data dies with the process anyway),
 *       live with {@code --bootstrap-servers}.</li>
 * </ul>
 */
public enum EventDelivery {
    /** Deferred with the embedded broker, live otherwise. */
    AUTO,
    /** Events go to Kafka as they come. */
    LIVE,
    /** Events are held until the last request has ended. */
    DEFERRED;

    /**
     * @param embeddedBroker whether the broker runs in this process
     * @return whether events are held until the last request has ended
     */
    public boolean deferred(boolean embeddedBroker) {
        return this == DEFERRED || (this == AUTO && embeddedBroker);
    }
}
