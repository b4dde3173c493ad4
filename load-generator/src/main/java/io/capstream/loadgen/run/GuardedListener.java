package io.capstream.loadgen.run;

import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.text.SecretMask;

/**
 * A run's {@link RunListener} as the run's parts call it: a listener's bug (a {@link RuntimeException}) never stops
 * the run or changes its outcome, and every notice is masked with the run's secrets first (a notice may quote a
 * server's message), as the events are. Thread-safe when the listener is.
 */
final class GuardedListener {
    private final RunListener listener;
    private final SecretMask mask;

    /**
     * @param listener the listener, or null for none
     * @param mask     the run's secrets; not null
     */
    GuardedListener(RunListener listener, SecretMask mask) {
        this.listener = listener == null ? RunListener.NONE : listener;
        this.mask = mask;
    }

    /** @return the listener itself (for the calls whose exceptions are the run's failure: {@code onStarted}) */
    RunListener raw() {
        return listener;
    }

    /** @param line a notice, masked before the listener sees it */
    void notice(String line) {
        try {
            listener.onNotice(mask.apply(line));
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
    }

    /** @param progress the run's progress */
    void progress(RunProgress progress) {
        try {
            listener.onProgress(progress);
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
    }

    /** @param event an event just handed to the sink */
    void event(RunEvent event) {
        try {
            listener.onEvent(event);
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
    }

    /** @param requestsEnded requests that ended, whose events the sink now delivers */
    void awaitingDelivery(int requestsEnded) {
        try {
            listener.onAwaitingDelivery(requestsEnded);
        } catch (RuntimeException ignored) {
            // a listener's bug must not stop the run
        }
    }

    /** @param outcome the run's outcome */
    void finished(RunOutcome outcome) {
        try {
            listener.onFinished(outcome);
        } catch (RuntimeException ignored) {
            // a listener's bug must not change the outcome
        }
    }
}
