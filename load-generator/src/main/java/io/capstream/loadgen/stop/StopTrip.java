package io.capstream.loadgen.stop;

import io.capstream.schemas.avro.RunStop;

/**
 * A stop rule that tripped (issue 30): what {@code RunFinished.stopped} records.
 *
 * @param rule          {@link StopRuleChecker#MAX_ERROR_RATE}, {@link StopRuleChecker#MAX_CONSECUTIVE_ERRORS},
 *                      {@link StopRuleChecker#SATURATION} or {@link StopRuleChecker#COORDINATOR}; not null
 * @param atNs          when it tripped, ns after the run's T0 (0 when before it)
 * @param detail        what was true, one sentence without a final period; not null
 * @param requestsEnded requests this run (or worker share) had seen end when it tripped
 */
public record StopTrip(String rule, long atNs, String detail, int requestsEnded) {

    /** @return the record of RunFinished.stopped ({@code at_ms} = {@code atNs} / 1e6) */
    public RunStop toAvro() {
        return RunStop.newBuilder().setRule(rule).setAtMs(Math.max(0, atNs) / 1e6).setDetail(detail)
                .setRequestsEnded(requestsEnded).build();
    }

    /** @return one line for the console, e.g. {@code stop rule max_error_rate tripped at 2.31 s: 27 of ...} */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "stop rule %s tripped at %.2f s after T0 (%d requests ended): %s",
                rule, Math.max(0, atNs) / 1e9, requestsEnded, detail);
    }
}
