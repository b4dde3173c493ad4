package io.capstream.loadgen.stop;

/**
 * The outcomes of the last {@code size} ended requests (failed or not) in a ring, with their failures counted: the
 * window of {@code --max-error-rate R/WINDOW}. Not thread-safe (its {@link StopRuleChecker} guards it).
 */
final class ErrorRateWindow {
    private final boolean[] failed;
    private int next;
    private int filled;
    private int failures;

    /** @param size the window, requests, &gt;= 1 */
    ErrorRateWindow(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + size);
        }
        this.failed = new boolean[size];
    }

    /** @param f whether the request that just ended failed; the oldest outcome leaves a full window */
    void add(boolean f) {
        if (filled == failed.length) {
            if (failed[next]) {
                failures--;
            }
        } else {
            filled++;
        }
        failed[next] = f;
        if (f) {
            failures++;
        }
        next = (next + 1) % failed.length;
    }

    /** @return whether the window holds {@link #size()} outcomes */
    boolean full() {
        return filled == failed.length;
    }

    /** @return failures among the outcomes held */
    int failures() {
        return failures;
    }

    /** @return the window's size, requests */
    int size() {
        return failed.length;
    }
}
