package io.capstream.loadgen.run;

import io.capstream.loadgen.client.StreamingClient;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What an interrupted run does with its requests in flight: they may still end on their own for the grace period
 * ({@link RunControl#interruptGrace()}); then those still in flight are cancelled ({@link
 * StreamingClient#cancelInFlight}: the connection closed, the request ends as {@code cancelled}, with what had
 * arrived, in no percentile), and a notice says how many. Runs once however often it is called (a {@link
 * RunControl#whenInterrupted} handler may be called twice). The grace is timed by a Vert.x timer.
 */
final class InterruptCancel implements Runnable {
    /** The end of each cancelled request's error message. */
    static final String REASON = "the run was interrupted";

    private final Vertx vertx;
    private final StreamingClient client;
    private final Duration grace;
    private final Consumer<String> notice;
    private final AtomicBoolean armed = new AtomicBoolean();

    /**
     * @param vertx  whose timer times the grace; not null
     * @param client the run's client; not null
     * @param grace  how long the requests in flight may still take; not null, not negative
     * @param notice takes the one-line notice when requests were cancelled; not null
     */
    InterruptCancel(Vertx vertx, StreamingClient client, Duration grace, Consumer<String> notice) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.client = Objects.requireNonNull(client, "client");
        this.grace = Objects.requireNonNull(grace, "grace");
        this.notice = Objects.requireNonNull(notice, "notice");
    }

    /** Arms the grace timer (once). */
    @Override
    public void run() {
        if (armed.compareAndSet(false, true)) {
            vertx.setTimer(Math.max(1, grace.toMillis()), id -> cancelNow());
        }
    }

    private void cancelNow() {
        int n = client.cancelInFlight(REASON);
        if (n > 0) {
            notice.accept(n + " request(s) still in flight " + (grace.toMillis() % 1000 == 0 ? grace.toSeconds() + " s"
                    : grace.toMillis() + " ms") + " after the interruption were"
                    + " cancelled (counted as cancelled, in no percentile)");
        }
    }
}
