package io.capstream.cli.options;

import io.capstream.loadgen.run.LoadShape;
import io.capstream.schemas.load.RateSchedule;
import io.capstream.schemas.load.SteadyStateWindow;
import picocli.CommandLine.Option;

/**
 * The arrival-shape options of {@code capstream run}, {@code generate} and {@code sweep} (issue 30): the gamma
 * arrivals' {@code --burstiness}, the open loop's {@code --rate-schedule} and the report's {@code --steady-state}
 * window. Applied to a run's {@link LoadShape} by {@link #applyTo}; the rules of the values are
 * {@link LoadShape#problems()}'s (and the records' own parsing).
 */
public class ArrivalOptions {
    @Option(names = "--burstiness", paramLabel = "B",
            description = "With --arrival gamma: the shape of the gamma-distributed gaps between arrivals (mean 1/rate,"
                    + " seeded by --seed). 1 is Poisson; smaller is burstier (clusters and lulls), larger more regular:"
                    + " the gaps' coefficient of variation is 1/sqrt(B), e.g. 0.25 gives 2. Required with gamma.")
    Double burstiness;

    @Option(names = "--rate-schedule", paramLabel = "TIME:RATE[,...]",
            description = "Open loop (--arrival constant, poisson or gamma) at a rate that changes over the run,"
                    + " instead of --rate: points TIME:RATE with increasing times (ms, s or m; a bare number is"
                    + " seconds) and rates in requests/s, linear between points, the last rate after the last point,"
                    + " e.g. 0s:2,60s:20,120s:20,180s:2 (a ramp up, a plateau, a ramp down). The arrival process keeps"
                    + " its shape while its mean follows the schedule. --duration and --requests bound the run; when"
                    + " the last rate is 0 the run ends after the schedule's last arrival.")
    String rateSchedule;

    @Option(names = "--steady-state", paramLabel = "START:END",
            description = "The window of the report's steady-state view, seconds after the run's start, e.g. 10:70"
                    + " (or 10s:70s): its throughput and latency without the ramp-up and the drain. Default: the"
                    + " documented automatic rule.")
    String steadyState;

    /**
     * @param load a run's load shape; not null
     * @return {@code load} with the given {@code --burstiness}, {@code --rate-schedule} and {@code --steady-state}
     *         (the others kept)
     * @throws IllegalArgumentException when {@code --rate-schedule} or {@code --steady-state} does not parse or
     *                                  breaks a rule of its own (times that do not increase, END &lt;= START), with a
     *                                  one-line message (usage error)
     */
    public LoadShape applyTo(LoadShape load) {
        LoadShape out = load;
        if (burstiness != null) {
            out = out.withBurstiness(burstiness);
        }
        if (rateSchedule != null) {
            out = out.withRateSchedule(RateSchedule.parse(rateSchedule));
        }
        if (steadyState != null) {
            out = out.withSteadyState(SteadyStateWindow.parse(steadyState));
        }
        return out;
    }
}
