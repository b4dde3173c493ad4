package io.capstream.cli.sweep;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The order of {@code sweep --rate auto} (issue 30), apart from how a step runs: the synchronous probe (1 slot),
 * the throughput probe ({@code slots} at once), the rates between their measured rates ({@link AutoRates}), then one
 * curve step per rate; a probe or step without a report, or a stop (SIGINT/SIGTERM), ends it. Not thread-safe.
 */
final class AutoSweep {
    /** Runs one probe, a closed loop of {@code slots}. */
    @FunctionalInterface
    interface Probe {
        /**
         * @param runId       the probe's run id
         * @param slots       its slots
         * @param synchronous true for the synchronous probe (the sweep's first run: it gets the client warm-up)
         * @return its completed requests/s (0 when none or unknown), or empty when it has no report
         */
        java.util.Optional<Double> run(String runId, int slots, boolean synchronous) throws Exception;
    }

    /** Runs one rate step of the curve. */
    @FunctionalInterface
    interface Step {
        /**
         * @param step 1-based step number
         * @param rate the step's rate, req/s
         * @return whether it has its report (false ends the sweep)
         */
        boolean run(int step, double rate) throws Exception;
    }

    /**
     * What ran.
     *
     * @param range    what the probes measured and the rates chosen; null when the synchronous probe had no report
     * @param complete whether both probes and every rate step ran and have their reports
     */
    record Outcome(AutoRange range, boolean complete) {
    }

    private AutoSweep() {
    }

    /**
     * @param sweepId the sweep id (the probes run as {@code <sweep id>-sync} and {@code <sweep id>-max})
     * @param slots   the throughput probe's slots
     * @param n       rates between the probes' rates
     * @param probe   runs a probe
     * @param step    runs a rate step
     * @param stopped whether SIGINT/SIGTERM asked to stop
     * @param say     receives the progress lines (without the command prefix)
     * @return what ran
     */
    static Outcome run(String sweepId, int slots, int n, Probe probe, Step step, BooleanSupplier stopped,
                       Consumer<String> say) throws Exception {
        String syncId = sweepId + AutoRange.SYNCHRONOUS_SUFFIX;
        java.util.Optional<Double> sync = probe.run(syncId, 1, true);
        if (sync.isEmpty()) {
            return new Outcome(null, false);
        }
        AutoRange range = new AutoRange(syncId, sync.get(), null, slots, null, List.of());
        if (stopped.getAsBoolean()) {
            return new Outcome(range, false);
        }
        String maxId = sweepId + AutoRange.THROUGHPUT_SUFFIX;
        java.util.Optional<Double> max = probe.run(maxId, slots, false);
        if (max.isEmpty()) {
            return new Outcome(new AutoRange(syncId, sync.get(), maxId, slots, null, List.of()), false);
        }
        range = new AutoRange(syncId, sync.get(), maxId, slots, max.get(), AutoRates.between(sync.get(), max.get(), n));
        say.accept(range.describe());
        List<Double> rates = range.rates();
        if (rates.isEmpty()) {
            return new Outcome(range, false);
        }
        for (int i = 0; i < rates.size(); i++) {
            if (stopped.getAsBoolean()) {
                say.accept("stopped after step " + i + " of " + rates.size());
                return new Outcome(range, false);
            }
            if (!step.run(i + 1, rates.get(i))) {
                return new Outcome(range, false);
            }
        }
        return new Outcome(range, true);
    }
}
