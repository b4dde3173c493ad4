package io.capstream.loadgen.stop;

import java.util.Locale;

/**
 * The live checker of a run's stop rules (issue 30): fed each ended request (and, with {@code --stop-on-saturation},
 * each scrape of the endpoint's waiting requests), it says when one of {@link StopRules} trips, once: the first trip
 * is latched and returned; later calls return null. Cancelled requests are not errors: every rule ignores them (they
 * neither count in the error window nor break a run of failures). The rules:
 * <ul>
 *   <li>{@value #MAX_ERROR_RATE}: more than {@code maxErrorRate} of the last {@code effectiveErrorWindow()} ended
 *       requests failed (checked once the window is full, so a run shorter than the window never trips it);</li>
 *   <li>{@value #MAX_CONSECUTIVE_ERRORS}: {@code maxConsecutiveErrors} requests in a row failed;</li>
 *   <li>{@value #SATURATION}: the {@link SaturationDetector} trips.</li>
 * </ul>
 * Fed with times (ns after T0), it reads no clock. Thread-safe (requests end on several event loops).
 */
public final class StopRuleChecker {
    /** Rule name of {@code --max-error-rate}. */
    public static final String MAX_ERROR_RATE = "max_error_rate";
    /** Rule name of {@code --max-consecutive-errors}. */
    public static final String MAX_CONSECUTIVE_ERRORS = "max_consecutive_errors";
    /** Rule name of {@code --stop-on-saturation}. */
    public static final String SATURATION = "saturation";
    /** Rule name of a distributed run's worker stopped by its coordinator because another worker tripped a rule. */
    public static final String COORDINATOR = "coordinator";

    private final StopRules rules;
    private final ErrorRateWindow window;
    private final SaturationDetector saturation;
    private int consecutive;
    private StopTrip trip;

    /** @param rules the run's rules; not null ({@link StopRules#NONE}: never trips) */
    public StopRuleChecker(StopRules rules) {
        this.rules = rules;
        this.window = rules.maxErrorRate() == null ? null : new ErrorRateWindow(rules.effectiveErrorWindow());
        this.saturation = rules.stopOnSaturation() ? new SaturationDetector() : null;
    }

    /** @return whether some rule is checked */
    public boolean active() {
        return rules.any();
    }

    /**
     * @param r             a request that ended; not null
     * @param requestsEnded requests ended so far, this one included
     * @return the trip when this request made a rule trip (the first time only), else null
     */
    public synchronized StopTrip ended(EndedRequest r, int requestsEnded) {
        if (trip != null || r.cancelled()) {
            return null;
        }
        String rule = null;
        String detail = null;
        if (window != null) {
            window.add(r.failed());
            if (window.full() && window.failures() > rules.maxErrorRate() * window.size()) {
                rule = MAX_ERROR_RATE;
                detail = String.format(Locale.ROOT, "%d of the last %d requests failed (%.0f%%), over the %s limit",
                        window.failures(), window.size(), 100.0 * window.failures() / window.size(),
                        percent(rules.maxErrorRate()));
            }
        }
        consecutive = r.failed() ? consecutive + 1 : 0;
        if (rule == null && rules.maxConsecutiveErrors() != null && consecutive >= rules.maxConsecutiveErrors()) {
            rule = MAX_CONSECUTIVE_ERRORS;
            detail = consecutive + " requests in a row failed, the last with " + r.errorType() + " (limit "
                    + rules.maxConsecutiveErrors() + ")";
        }
        if (rule == null && saturation != null) {
            detail = saturation.ended(r);
            rule = detail == null ? null : SATURATION;
        }
        if (rule == null) {
            return null;
        }
        trip = new StopTrip(rule, r.endNs(), detail, requestsEnded);
        return trip;
    }

    /**
     * @param atNs          when the scrape's answer arrived, ns after T0
     * @param waiting       the endpoint's waiting requests then
     * @param requestsEnded requests ended so far
     * @return the trip when the saturation detector trips on it (the first trip only), else null; always null
     *         without {@code --stop-on-saturation}
     */
    public synchronized StopTrip serverWaiting(long atNs, double waiting, int requestsEnded) {
        if (trip != null || saturation == null) {
            return null;
        }
        String detail = saturation.serverWaiting(waiting);
        if (detail == null) {
            return null;
        }
        trip = new StopTrip(SATURATION, atNs, detail, requestsEnded);
        return trip;
    }

    /** @return the trip so far, or null */
    public synchronized StopTrip tripped() {
        return trip;
    }

    private static String percent(double share) {
        double p = share * 100;
        return p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f%%", p) : String.format(Locale.ROOT, "%.1f%%", p);
    }
}
