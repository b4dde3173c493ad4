package io.capstream.loadgen.arrival;

import io.capstream.schemas.load.RateSchedule;

/**
 * An open loop's arrival process (issue 30): the gaps' distribution ({@link ArrivalMode#CONSTANT},
 * {@link ArrivalMode#POISSON} or {@link ArrivalMode#GAMMA} with shape {@code burstiness}) and their mean, either a
 * constant {@code --rate} or a {@code --rate-schedule} that the arrivals follow by time rescaling
 * ({@link RateSchedule#timeOf}). Immutable; {@link ArrivalSchedule} draws the arrival times.
 *
 * @param mode         CONSTANT, POISSON or GAMMA; not null
 * @param rateRps      the constant rate, requests/s, &gt; 0 when {@code schedule} is null; ignored with a schedule
 * @param burstiness   the gamma shape B (&gt; 0; 1 = Poisson, smaller is burstier) with GAMMA, else ignored (null)
 * @param schedule     the rate over the run, or null for the constant {@code rateRps}
 */
public record ArrivalProcess(ArrivalMode mode, double rateRps, Double burstiness, RateSchedule schedule) {

    /**
     * @throws IllegalArgumentException for a closed loop or a trace (no process), a constant rate that is not
     *                                  &gt; 0 without a schedule, or GAMMA without a burstiness &gt; 0
     */
    public ArrivalProcess {
        if (mode == null || mode == ArrivalMode.CLOSED) {
            throw new IllegalArgumentException("closed loop has no arrival schedule");
        }
        if (mode == ArrivalMode.TRACE) {
            throw new IllegalArgumentException("a trace's schedule is its offsets: ArrivalSchedule.ofOffsets");
        }
        if (schedule == null && !(rateRps > 0 && Double.isFinite(rateRps))) {
            throw new IllegalArgumentException("rate must be > 0 requests/s, got " + rateRps);
        }
        if (mode == ArrivalMode.GAMMA && (burstiness == null || !(burstiness > 0) || !Double.isFinite(burstiness))) {
            throw new IllegalArgumentException("gamma arrivals need a burstiness > 0, got " + burstiness);
        }
    }

    /**
     * @param mode    CONSTANT or POISSON
     * @param rateRps the constant rate, requests/s, &gt; 0
     * @return the process at a constant rate, without burstiness or schedule
     */
    public static ArrivalProcess of(ArrivalMode mode, double rateRps) {
        return new ArrivalProcess(mode, rateRps, null, null);
    }

    /**
     * @return the configured coefficient of variation of the gaps: 0 (constant), 1 (Poisson) or 1/sqrt(B) (gamma);
     *         with a schedule, of the gaps in operational time (the rescaled gaps keep it where the rate changes
     *         slowly against the gaps)
     */
    public double configuredCv() {
        return switch (mode) {
            case CONSTANT -> 0;
            case POISSON -> 1;
            case GAMMA -> 1 / Math.sqrt(burstiness);
            default -> throw new IllegalStateException(mode.name());
        };
    }
}
