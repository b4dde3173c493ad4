package io.capstream.loadgen.run;

import io.capstream.loadgen.stop.StopTrip;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Lets the caller stop a run early (SIGINT, continuous mode shutting down, a distributed run's coordinator). After
 * {@link #requestStop()} no new request starts; requests in flight finish, for at most the {@link #interruptGrace()}
 * (then the run cancels those still in flight, as {@code --cancel-rate} cancels one), then RunFinished is sent
 * with {@code interrupted = true}. {@link #requestStop(String, String)} stops it the same way for a stop rule that
 * tripped elsewhere (RunFinished {@code stopped}, not interrupted). The run tells the caller when one of its own stop
 * rules trips ({@link #onTrip}). Thread-safe.
 */
public final class RunControl {
    /** How long an interrupted run's requests in flight may still take before they are cancelled: 10 s. */
    public static final Duration DEFAULT_INTERRUPT_GRACE = Duration.ofSeconds(10);

    private final Duration interruptGrace;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicReference<Runnable> interruptHandler = new AtomicReference<>();
    private final AtomicReference<String[]> ruleStop = new AtomicReference<>();
    private final AtomicReference<Consumer<String[]>> ruleStopHandler = new AtomicReference<>();
    private volatile Consumer<StopTrip> tripListener;

    /** A control whose interrupted runs cancel their requests still in flight after {@link #DEFAULT_INTERRUPT_GRACE}. */
    public RunControl() {
        this(DEFAULT_INTERRUPT_GRACE);
    }

    /**
     * @param interruptGrace how long an interrupted run's requests in flight may still take before the run cancels
     *                       them; not null, not negative
     * @throws IllegalArgumentException when negative
     */
    public RunControl(Duration interruptGrace) {
        if (interruptGrace.isNegative()) {
            throw new IllegalArgumentException("negative interrupt grace: " + interruptGrace);
        }
        this.interruptGrace = interruptGrace;
    }

    /** @return how long an interrupted run's requests in flight may still take before they are cancelled */
    public Duration interruptGrace() {
        return interruptGrace;
    }

    /** Asks the run to stop starting requests (an interruption). Idempotent. */
    public void requestStop() {
        if (stop.compareAndSet(false, true)) {
            Runnable h = interruptHandler.get();
            if (h != null) {
                h.run();
            }
        }
    }

    /**
     * Sets what the run does when it is interrupted ({@link #requestStop()}): called at once when that happened
     * already, else when it happens (on the caller's thread, which it must not block); a race may call it twice, so it
     * must be idempotent.
     *
     * @param handler e.g. arms the timer that cancels the requests in flight after the grace; not null
     */
    void whenInterrupted(Runnable handler) {
        interruptHandler.set(handler);
        if (stop.get()) {
            handler.run();
        }
    }

    /**
     * Asks the run to stop starting requests because a stop rule tripped outside it (issue 30: another worker of a
     * distributed run; its RunFinished then records this rule, not an interruption). The first such request wins.
     *
     * @param rule   the rule recorded, e.g. {@code coordinator}; not null
     * @param detail what was true, one sentence; not null
     */
    public void requestStop(String rule, String detail) {
        String[] r = {rule, detail};
        if (ruleStop.compareAndSet(null, r)) {
            Consumer<String[]> h = ruleStopHandler.get();
            if (h != null) {
                h.accept(r);
            }
        }
    }

    /** @return whether a stop was requested, by {@link #requestStop()} or {@link #requestStop(String, String)} */
    public boolean stopRequested() {
        return stop.get() || ruleStop.get() != null;
    }

    /** @return whether {@link #requestStop()} (an interruption) was called */
    public boolean interruptRequested() {
        return stop.get();
    }

    /**
     * @param listener told once, on an event-loop thread (it must not block), when the run trips one of its own stop
     *                 rules; null for none
     */
    public void onTrip(Consumer<StopTrip> listener) {
        this.tripListener = listener;
    }

    /** The run tripped one of its stop rules: tells the {@link #onTrip} listener (its exceptions are swallowed). */
    void tripped(StopTrip trip) {
        Consumer<StopTrip> l = tripListener;
        if (l != null) {
            try {
                l.accept(trip);
            } catch (RuntimeException ignored) {
                // a listener's bug must not stop the run
            }
        }
    }

    /**
     * Sets what the run does with a {@link #requestStop(String, String)}: called at once when one came already,
     * else when it comes (on the caller's thread); a race may call it twice, so it must be idempotent.
     *
     * @param handler takes {rule, detail}; not null
     */
    void whenRuleStop(Consumer<String[]> handler) {
        ruleStopHandler.set(handler);
        String[] r = ruleStop.get();
        if (r != null) {
            handler.accept(r);
        }
    }
}
