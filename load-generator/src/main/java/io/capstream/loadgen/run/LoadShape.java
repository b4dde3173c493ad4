package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.schemas.load.RateSchedule;
import io.capstream.schemas.load.SteadyStateWindow;
import java.util.ArrayList;
import java.util.List;

/**
 * The load-shape group of a {@link RunConfig}: how many requests, how many at once, and when they
 * start (spec §1, §4; capstream adds the open-loop arrivals, the time bound and the ramp-up).
 *
 * @param requests    {@code --requests}: planned requests (default 60); with a {@code --duration} in closed
 *                    loop, the upper bound
 * @param concurrency {@code --concurrency}: closed-loop slots (default 20)
 * @param burst       {@code --burst}: when non-zero replaces both requests and concurrency (default 0)
 * @param arrival     arrival process; null means {@link ArrivalMode#CLOSED}
 * @param rateRps     open-loop rate, requests per second; required for constant/poisson, else null
 * @param maxInFlight open-loop cap on requests in flight; null = {@value #DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT}, or the
 *                    effective concurrency when that is larger
 * @param durationS   time bound, seconds (no new request starts after it), or null
 * @param rampUpS     closed-loop ramp-up, seconds: slot k of c takes its first request k x rampUpS / c after
 *                    T0 (a deviation from the reference, which starts every slot at once); null or 0 = no
 *                    ramp. Open loop: must be null
 * @param burstiness  {@code --burstiness} of {@link ArrivalMode#GAMMA}: the gamma shape of the inter-arrival gaps
 *                    (1 = Poisson, smaller is burstier; coefficient of variation 1/sqrt(B)); null otherwise (issue 30)
 * @param rateSchedule {@code --rate-schedule}: the open-loop rate over the run (constant, Poisson or gamma); null for
 *                    the constant {@code rateRps} (issue 30)
 * @param steadyState {@code --steady-state START:END}: the report's steady-state window; null for the automatic
 *                    rule (issue 30)
 */
public record LoadShape(int requests, int concurrency, int burst, ArrivalMode arrival, Double rateRps,
                        Integer maxInFlight, Double durationS, Double rampUpS, Double burstiness,
                        RateSchedule rateSchedule, SteadyStateWindow steadyState) {

    /**
     * Default open-loop in-flight cap ({@code --max-in-flight}): high enough that the client's cap is not the first
     * limit a rate run meets (issue 26: a default of {@code --concurrency}, 20, held a 32 req/s sweep step to
     * 15.6 req/s and the sweep reported it as the endpoint's capacity); at 1,000 it binds only past e.g. 100 req/s
     * with 10 s requests. A run whose cap held it says so ({@code load.behind_schedule} with the cap reached).
     */
    public static final int DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT = 1000;

    /**
     * The reference's load: {@value RunConfig#DEFAULT_REQUESTS} requests over {@value RunConfig#DEFAULT_CONCURRENCY}
     * closed-loop slots, no burst, no rate, cap, time bound or ramp-up.
     */
    public static final LoadShape DEFAULTS = new LoadShape(RunConfig.DEFAULT_REQUESTS, RunConfig.DEFAULT_CONCURRENCY,
            0, ArrivalMode.CLOSED, null, null, null, null);

    /** Fills a null arrival with {@link ArrivalMode#CLOSED}. */
    public LoadShape {
        arrival = arrival == null ? ArrivalMode.CLOSED : arrival;
    }

    /**
     * A load shape without burstiness, rate schedule or steady-state window (the settings before issue 30).
     *
     * @see #LoadShape(int, int, int, ArrivalMode, Double, Integer, Double, Double, Double, RateSchedule,
     *      SteadyStateWindow)
     */
    public LoadShape(int requests, int concurrency, int burst, ArrivalMode arrival, Double rateRps,
                     Integer maxInFlight, Double durationS, Double rampUpS) {
        this(requests, concurrency, burst, arrival, rateRps, maxInFlight, durationS, rampUpS, null, null, null);
    }

    /** @return n: {@code burst} when non-zero, else {@code requests} (spec §1) */
    public int effectiveRequests() {
        return burst != 0 ? burst : requests;
    }

    /** @return conc: {@code burst} when non-zero, else {@code concurrency} (spec §1) */
    public int effectiveConcurrency() {
        return burst != 0 ? burst : concurrency;
    }

    /**
     * @return the open-loop in-flight cap: {@code maxInFlight}, or when null the larger of
     *         {@value #DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT} and conc
     */
    public int effectiveMaxInFlight() {
        return maxInFlight != null ? maxInFlight : Math.max(DEFAULT_OPEN_LOOP_MAX_IN_FLIGHT, effectiveConcurrency());
    }

    /** @param v planned requests @return a copy with them */
    public LoadShape withRequests(int v) {
        return new LoadShape(v, concurrency, burst, arrival, rateRps, maxInFlight, durationS, rampUpS,
                burstiness, rateSchedule, steadyState);
    }

    /** @param v closed-loop slots @return a copy with them */
    public LoadShape withConcurrency(int v) {
        return new LoadShape(requests, v, burst, arrival, rateRps, maxInFlight, durationS, rampUpS,
                burstiness, rateSchedule, steadyState);
    }

    /** @param v arrival process (null = closed) @return a copy with it */
    public LoadShape withArrival(ArrivalMode v) {
        return new LoadShape(requests, concurrency, burst, v, rateRps, maxInFlight, durationS, rampUpS,
                burstiness, rateSchedule, steadyState);
    }

    /** @param v open-loop rate, requests/s, or null @return a copy with it */
    public LoadShape withRateRps(Double v) {
        return new LoadShape(requests, concurrency, burst, arrival, v, maxInFlight, durationS, rampUpS,
                burstiness, rateSchedule, steadyState);
    }

    /** @param v open-loop in-flight cap, or null for the default @return a copy with it */
    public LoadShape withMaxInFlight(Integer v) {
        return new LoadShape(requests, concurrency, burst, arrival, rateRps, v, durationS, rampUpS,
                burstiness, rateSchedule, steadyState);
    }

    /** @param v closed-loop ramp-up, seconds, or null @return a copy with it */
    public LoadShape withRampUpS(Double v) {
        return new LoadShape(requests, concurrency, burst, arrival, rateRps, maxInFlight, durationS, v,
                burstiness, rateSchedule, steadyState);
    }

    /**
     * @param seconds the new time bound, seconds, or null for none
     * @return a copy with this {@code durationS}
     */
    public LoadShape withDurationS(Double seconds) {
        return new LoadShape(requests, concurrency, burst, arrival, rateRps, maxInFlight, seconds, rampUpS,
                burstiness, rateSchedule, steadyState);
    }

    /**
     * @param n the new {@code --burst}, 0 for none
     * @return a copy with this {@code burst}
     */
    public LoadShape withBurst(int n) {
        return new LoadShape(requests, concurrency, n, arrival, rateRps, maxInFlight, durationS, rampUpS,
                burstiness, rateSchedule, steadyState);
    }

    /** @param v gamma burstiness, or null @return a copy with it */
    public LoadShape withBurstiness(Double v) {
        return new LoadShape(requests, concurrency, burst, arrival, rateRps, maxInFlight, durationS, rampUpS, v,
                rateSchedule, steadyState);
    }

    /** @param v the open-loop rate schedule, or null for a constant rate @return a copy with it */
    public LoadShape withRateSchedule(RateSchedule v) {
        return new LoadShape(requests, concurrency, burst, arrival, rateRps, maxInFlight, durationS, rampUpS,
                burstiness, v, steadyState);
    }

    /** @param v the steady-state window, or null for the automatic rule @return a copy with it */
    public LoadShape withSteadyState(SteadyStateWindow v) {
        return new LoadShape(requests, concurrency, burst, arrival, rateRps, maxInFlight, durationS, rampUpS,
                burstiness, rateSchedule, v);
    }

    /**
     * @return the open loop's arrival process: {@code arrival} with {@code rateRps} or {@code rateSchedule}, and
     *         {@code burstiness}
     * @throws IllegalArgumentException for a closed loop or a trace, or a shape {@link #problems()} refuses
     */
    public io.capstream.loadgen.arrival.ArrivalProcess arrivalProcess() {
        return new io.capstream.loadgen.arrival.ArrivalProcess(arrival, rateRps == null ? 0 : rateRps, burstiness,
                rateSchedule);
    }

    /**
     * Checks the group (spec §1): the bounds of requests, concurrency and burst (up to
     * {@value RunConfig#MAX_REQUESTS}), then the arrival options (rate or rate schedule, burstiness, steady-state
     * window, in-flight cap, duration, ramp-up).
     *
     * @return one usage error message per problem; empty when valid; never null
     */
    public List<String> problems() {
        List<String> errors = new ArrayList<>();
        Ranges.check(errors, "--requests", requests, 1, RunConfig.MAX_REQUESTS);
        Ranges.check(errors, "--concurrency", concurrency, 1, RunConfig.MAX_REQUESTS);
        Ranges.check(errors, "--burst", burst, 0, RunConfig.MAX_REQUESTS);
        switch (arrival) {
            case CLOSED -> {
                if (rateRps != null) {
                    errors.add("--rate needs --arrival constant, poisson or gamma");
                }
                if (rateSchedule != null) {
                    errors.add("--rate-schedule needs an open loop: --arrival constant, poisson or gamma");
                }
            }
            case CONSTANT, POISSON, GAMMA -> {
                if (rateSchedule != null) {
                    if (rateRps != null) {
                        errors.add("--rate and --rate-schedule both give the rate: give one (the schedule's rate"
                                + " at 0s is its first)");
                    }
                } else if (rateRps != null && !Double.isFinite(rateRps)) {
                    errors.add("--rate must be a finite number of requests per second, got " + rateRps);
                } else if (rateRps == null || rateRps <= 0) {
                    errors.add("--arrival " + arrival.wireName() + " needs --rate > 0 (requests per second)"
                            + " or --rate-schedule");
                }
            }
            case TRACE -> {
                if (rateSchedule != null) {
                    errors.add("--rate-schedule does not apply to --trace: the trace's timestamps are the arrivals");
                }
                if (rateRps != null) {
                    errors.add("--rate does not apply to --trace: the trace's timestamps are the arrivals");
                }
                if (durationS != null) {
                    errors.add("--duration does not apply to --trace: the trace's last timestamp ends it"
                            + " (--requests takes its first N entries)");
                }
            }
            default -> throw new IllegalStateException();
        }
        burstinessProblem(errors);
        if (steadyState != null && durationS != null && Double.isFinite(durationS)
                && steadyState.startS() >= durationS) {
            errors.add("--steady-state " + steadyState.canonical() + " starts at or after the --duration of "
                    + durationS + " s");
        }
        if (maxInFlight != null && (maxInFlight < 1 || maxInFlight > RunConfig.MAX_REQUESTS)) {
            errors.add("--max-in-flight must be between 1 and " + RunConfig.MAX_REQUESTS + ", got " + maxInFlight);
        }
        if (durationS != null && (!Double.isFinite(durationS) || durationS <= 0)) {
            errors.add("--duration must be a positive number of seconds, got " + durationS);
        }
        if (rampUpS != null) {
            if (!Double.isFinite(rampUpS) || rampUpS < 0) {
                errors.add("--ramp-up must be a duration >= 0, got " + rampUpS + " s");
            } else if (arrival != ArrivalMode.CLOSED) {
                errors.add("--ramp-up applies to the closed loop (--arrival closed), not to --arrival " + arrival.wireName());
            }
        }
        return errors;
    }

    /** Adds the {@code --burstiness} rules: a finite number &gt; 0, with {@code --arrival gamma} and only there. */
    private void burstinessProblem(List<String> errors) {
        if (burstiness == null) {
            if (arrival == ArrivalMode.GAMMA) {
                errors.add("--arrival gamma needs --burstiness B > 0 (the gamma shape: 1 = Poisson, smaller is"
                        + " burstier)");
            }
        } else if (!Double.isFinite(burstiness) || burstiness <= 0) {
            errors.add("--burstiness must be a number > 0 (the gamma shape: 1 = Poisson, smaller is burstier), got "
                    + burstiness);
        } else if (arrival != ArrivalMode.GAMMA) {
            errors.add("--burstiness needs --arrival gamma (it is the shape of the gamma gaps), not --arrival "
                    + arrival.wireName());
        }
    }
}
