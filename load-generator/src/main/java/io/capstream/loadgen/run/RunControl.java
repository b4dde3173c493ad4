package io.capstream.loadgen.run;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lets the caller stop a run early (SIGINT, continuous mode shutting down). After
 * {@link #requestStop()} no new request starts; requests in flight finish, then RunFinished is sent
 * with {@code interrupted = true}. Thread-safe.
 */
public final class RunControl {
    private final AtomicBoolean stop = new AtomicBoolean();

    /** Asks the run to stop starting requests. Idempotent. */
    public void requestStop() {
        stop.set(true);
    }

    /** @return whether a stop was requested */
    public boolean stopRequested() {
        return stop.get();
    }
}
