package io.capstream.cli.sweep;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.RunConfig;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * The load axis of a sweep ({@code SweepStep.axis}): {@link #CONCURRENCY}, closed-loop slots, or
 * {@link #RATE}, the open-loop arrival rate in req/s. Applies a step's value to a run's load shape.
 */
public enum LoadAxis {
    /** Closed loop with this many slots (whole numbers). */
    CONCURRENCY("concurrency", "--concurrency", 1024),
    /** Open loop at this arrival rate, req/s. */
    RATE("rate", "--rate", 1000);

    private final String wireName;
    private final String option;
    private final double defaultSearchMax;

    LoadAxis(String wireName, String option, double defaultSearchMax) {
        this.wireName = wireName;
        this.option = option;
        this.defaultSearchMax = defaultSearchMax;
    }

    /** @return the axis name in events, reports and sweep.json: {@code concurrency} or {@code rate} */
    public String wireName() {
        return wireName;
    }

    /** @return the command-line option that lists the axis's values: {@code --concurrency} or {@code --rate} */
    public String option() {
        return option;
    }

    /** @return the default {@code --search-max}: 1024 slots, or 1000 req/s */
    public double defaultSearchMax() {
        return defaultSearchMax;
    }

    /** @return true for the concurrency axis, whose values are whole numbers */
    public boolean integral() {
        return this == CONCURRENCY;
    }

    /**
     * @param text {@code concurrency} or {@code rate} (any case)
     * @return the axis
     * @throws IllegalArgumentException for anything else
     */
    public static LoadAxis parse(String text) {
        for (LoadAxis a : values()) {
            if (a.wireName.equalsIgnoreCase(text == null ? "" : text.trim())) {
                return a;
            }
        }
        throw new IllegalArgumentException("--search must be concurrency or rate, got '" + text + "'");
    }

    /**
     * The run configuration of one step: the base run's workload at this load. Concurrency: a
     * closed loop with {@code value} slots ({@code --burst} off). Rate: an open loop at {@code value}
     * req/s with the base's open-loop arrival process (gamma with its {@code --burstiness}), or Poisson when the base
     * is a closed loop; both keep the base's {@code --steady-state} window (a {@code --rate-schedule} is not kept: a step
     * is one load, and {@code sweep} refuses the option);
     * the in-flight cap stays the base's ({@code --max-in-flight}, else {@link LoadShape#effectiveMaxInFlight()}'s
     * default).
     *
     * @param base  the resolved run configuration (the options of {@code sweep}); not null
     * @param value the step's load: slots, or req/s (&gt; 0)
     * @return a copy of {@code base} with the step's load shape
     */
    public RunConfig apply(RunConfig base, double value) {
        LoadShape l = base.load();
        LoadShape shape = switch (this) {
            case CONCURRENCY -> new LoadShape(l.requests(), (int) Math.round(value), 0, ArrivalMode.CLOSED, null,
                    l.maxInFlight(), l.durationS(), l.rampUpS());
            case RATE -> new LoadShape(l.requests(), l.concurrency(), 0,
                    l.arrival() == ArrivalMode.CLOSED ? ArrivalMode.POISSON : l.arrival(), value, l.maxInFlight(),
                    l.durationS(), l.rampUpS());
        };
        // the burstiness (refused with a closed loop) and the steady-state window are each step's; a --rate-schedule
        // is not (a step is one load): SweepCommand refuses it as "sweep does not take --rate-schedule"
        shape = shape.withBurstiness(l.burstiness()).withSteadyState(l.steadyState());
        return base.withLoad(shape);
    }

    /**
     * @param value a load on this axis
     * @return it as written in messages and tables: {@code 8} (slots), {@code 2.5} (req/s)
     */
    public String format(double value) {
        if (integral() || value == Math.rint(value)) {
            return Long.toString(Math.round(value));
        }
        return new BigDecimal(String.format(Locale.ROOT, "%.6f", value)).stripTrailingZeros().toPlainString();
    }
}
