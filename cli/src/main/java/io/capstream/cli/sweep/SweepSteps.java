package io.capstream.cli.sweep;

import io.capstream.cli.runner.DeliverySession;
import io.capstream.cli.runner.RunRequest;
import io.capstream.cli.runner.RunStep;
import io.capstream.cli.stack.LocalStack;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunControl;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.report.ReportView;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The steps of one sweep, run one after another on the started stack: the grid's loads in order
 * ({@link #grid()}) or those the {@link SloSearch} chooses ({@link #search()}); each step is a
 * {@link RunStep} with its own configuration ({@link SweepDriver#stepConfig}), followed by its progress
 * line ({@link SweepDriver#progressLine}). A stop (SIGINT/SIGTERM), a step without report, or a usage
 * error ends the series. Not thread-safe (one sweep, one thread).
 */
final class SweepSteps {
    private final LocalStack stack;
    private final DeliverySession session;
    private final RunConfig base;
    private final RunControl control;
    private final RunStep runStep;
    /** Run ids of the steps whose reports arrived, in step order. */
    private final Set<String> reportIds = new LinkedHashSet<>();
    /** Run ids of the steps whose reports say a stop rule ended them early. */
    private final Set<String> stoppedRunIds = new LinkedHashSet<>();
    /** The steps whose reports arrived, in step order, for the {@code --html}/{@code --csv} files. */
    private final List<SweepViews.Step> done = new ArrayList<>();
    private boolean usageError;
    /** Each load's repeats ({@code --repeat N} above 1), in the order run. */
    private final List<RepeatSummary> repeats = new ArrayList<>();
    /** The next step number of a search: its loads' repeats are steps of their own. */
    private int nextSearchStep = 1;
    private AutoRange autoRange;
    private final SweepSettings settings;
    private final RunRequest req;
    private final PrintStream err;
    private final String cmd;
    private final StepConfigs configs;

    /**
     * @param settings the sweep
     * @param req      the run options every step shares
     * @param runStep  runs one step and awaits its report
     * @param configs  the run configuration of each step
     * @param err      progress lines and notices
     * @param stack    the started stack
     * @param session  the sweep's producer and report waiter
     * @param base     the resolved options (bound to the target)
     * @param control  SIGINT/SIGTERM
     */
    SweepSteps(SweepSettings settings, RunRequest req, RunStep runStep, StepConfigs configs, PrintStream err,
               LocalStack stack, DeliverySession session, RunConfig base, RunControl control) {
        this.settings = settings;
        this.req = req;
        this.runStep = runStep;
        this.configs = configs;
        this.err = err;
        this.cmd = "capstream " + req.commandName();
        this.stack = stack;
        this.session = session;
        this.base = base;
        this.control = control;
    }

    /** The run configuration of one step ({@link SweepDriver#stepConfig}). */
    @FunctionalInterface
    interface StepConfigs {
        /**
         * @param base   the resolved options
         * @param step   1-based step number
         * @param load   the step's load
         * @param repeat the search's confirmation
         * @return the step's configuration
         */
        RunConfig of(RunConfig base, int step, double load, boolean repeat);
    }

    /** @return run ids of the steps whose reports arrived, in step order */
    Set<String> reportIds() {
        return reportIds;
    }

    /** @return the steps whose reports arrived, in step order, for the {@code --html}/{@code --csv} files */
    List<SweepViews.Step> done() {
        return done;
    }

    /** @return run ids of the steps a stop rule ended early (issue 30), in step order */
    Set<String> stoppedRunIds() {
        return stoppedRunIds;
    }

    /** @return whether a step ended with a usage error (exit code 2) */
    boolean usageError() {
        return usageError;
    }

    /** @return whether every step ran and has its report */
    boolean grid() throws Exception {
        List<Double> loads = settings.grid();
        int n = settings.repeat();
        for (int i = 0; i < loads.size(); i++) {
            List<BenchmarkReport> runs = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                int step = i * n + k + 1;
                if (control.stopRequested()) {
                    err.println(cmd + ": stopped after step " + (step - 1) + " of " + loads.size() * n);
                    return false;
                }
                BenchmarkReport r = run(step, loads.get(i), k > 0);
                if (r == null) {
                    return false;
                }
                runs.add(r);
            }
            summarise(loads.get(i), runs);
        }
        return true;
    }

    /** @return each load's repeats ({@code --repeat N} above 1), in the order run; empty otherwise */
    List<RepeatSummary> repeats() {
        return repeats;
    }

    /** With {@code --repeat N} above 1: records the load's runs and prints their line; @return the summary or null */
    private RepeatSummary summarise(double load, List<BenchmarkReport> runs) {
        if (settings.repeat() < 2) {
            return null;
        }
        RepeatSummary s = new RepeatSummary(load, runs, settings.slos());
        repeats.add(s);
        err.println(cmd + ": " + s.line(settings.axis()));
        return s;
    }

    /** @return what {@link #auto()} measured and chose, or null before it ran */
    AutoRange autoRange() {
        return autoRange;
    }

    /**
     * {@code --rate auto}: the synchronous and the throughput step ({@link AutoRange}), then the curve's steps at
     * the {@link AutoRates} rates.
     *
     * @return whether both probes and every rate step ran and have their reports
     */
    boolean auto() throws Exception {
        AutoSweep.Outcome o = AutoSweep.run(settings.sweepId(), throughputSlots(base), settings.autoRates(),
                (runId, slots, synchronous) -> {
                    BenchmarkReport r = probe(runId, slots, synchronous);
                    Double rps = r == null ? null : SweepDriver.requestsPerS(r);
                    return r == null ? Optional.empty() : Optional.of(rps == null ? 0.0 : rps);
                },
                (step, rate) -> run(step, rate, false) != null, control::stopRequested,
                line -> err.println(cmd + ": " + line));
        autoRange = o.range();
        return o.complete();
    }

    /**
     * @param base the resolved options
     * @return the throughput step's slots: every request of the run at once, bounded by the in-flight cap
     *     ({@code --max-in-flight}, else its open-loop default), as GuideLLM's throughput strategy (all requests
     *     at once, up to {@code max_concurrency})
     */
    static int throughputSlots(RunConfig base) {
        return Math.max(1, Math.min(base.load().effectiveRequests(), base.load().effectiveMaxInFlight()));
    }

    /** @return a probe's report (closed loop of {@code slots}, no sweep step), or null when it has none */
    private BenchmarkReport probe(String runId, int slots, boolean first) throws Exception {
        RunConfig config = configs.of(base, 0, slots, false);
        RunConfig c = LoadAxis.CONCURRENCY.apply(config, slots)
                .withIdentity(config.identity().withRunId(runId))
                .withReport(config.report().withSweep(null));
        if (first) {
            c = c.withWarmup(base.warmup());
        }
        RunStep.Result r = runStep.run(stack, session, c, control, id -> settings.output().report(id), false);
        if (r.exitCode() == 2) {
            usageError = true;
            return null;
        }
        err.println(cmd + ": " + (first ? "synchronous" : "throughput") + " step (concurrency " + slots + ", run "
                + runId + "): " + (r.hasReport() ? LoadAxis.RATE.format(AutoRates.round(
                SweepDriver.requestsPerS(r.report()) == null ? 0 : SweepDriver.requestsPerS(r.report())))
                + " req/s completed" : "no report"));
        if (!r.hasReport()) {
            return null;
        }
        if (req.visual().any()) {
            done.add(new SweepViews.Step(runId, 0, r.reportFile(), ArtifactJson.parse(r.report().getArtifactJson())));
        }
        return r.report();
    }

    /** @return whether the search ended normally (every step it ran has its report) */
    boolean search() throws Exception {
        SloSearch search = new SloSearch(settings.search(), settings.slos());
        SloSearch.Outcome o = search.run((step, load, repeat) -> {
            if (control.stopRequested()) {
                err.println(cmd + ": stopped after step " + (step - 1));
                return Optional.empty();
            }
            int requests = base.load().effectiveRequests();
            if (settings.axis() == LoadAxis.CONCURRENCY && load > requests) {
                err.println(cmd + ": search stopped before concurrency " + settings.axis().format(load)
                        + ": --requests " + requests + " bounds every step to " + requests + " requests in"
                        + " flight, so a higher concurrency cannot load the endpoint more; raise --requests");
                return Optional.empty();
            }
            List<BenchmarkReport> runs = new ArrayList<>();
            for (int k = 0; k < settings.repeat(); k++) {
                BenchmarkReport report = checked(run(nextSearchStep++, load, repeat || k > 0), nextSearchStep - 1, load);
                if (report == null) {
                    return Optional.empty();
                }
                runs.add(report);
            }
            RepeatSummary summary = summarise(load, runs);
            if (summary != null) {
                return Optional.of(new SloSearch.Observation(summary.met(), summary.meanObserved()));
            }
            BenchmarkReport report = runs.get(0);
            return Optional.of(SweepDriver.observation(report, settings.slos()));
        });
        LoadAxis axis = settings.axis();
        if (o.best() == null && !o.aborted()) {
            err.println(cmd + ": search: none of the loads met the SLOs");
        } else if (o.best() != null) {
            err.println(cmd + ": search: " + axis.wireName() + " " + axis.format(o.best())
                    + (o.confirmed() ? " met the SLOs twice" : " met the SLOs once (not confirmed: "
                    + (o.aborted() ? "the search ended early" : "--max-steps " + settings.search().maxSteps()
                    + " reached") + ")") + " in " + o.probes().size() + " step(s)"
                    + (o.best() >= settings.search().max() ? "; that is --search-max "
                    + axis.format(settings.search().max()) + ": the endpoint may take more (raise --search-max)" : ""));
        }
        return !o.aborted();
    }

    /** @return the search step's report when the search can go on with it, else null (with the reason printed) */
    private BenchmarkReport checked(BenchmarkReport report, int step, double load) {
        if (report == null) {
            return null;
        }
        if (report.getSlo() == null) {
            err.println(cmd + ": the report of step " + step + " has no SLO evaluation (capstream.slo);"
                    + " the search cannot go on");
            return null;
        }
        if (ReportView.heldByInFlightCap(report.getLoad())) {
            err.println(cmd + ": search stopped: step " + step + " was held by the client's in-flight cap"
                    + " (--max-in-flight " + report.getLoad().getOfferedConcurrency() + "), not by the"
                    + " endpoint; loads above " + settings.axis().format(load) + " need a higher"
                    + " --max-in-flight");
            return null;
        }
        return report;
    }

    /** @return the step's report, or null when it has none (the sweep stops) */
    private BenchmarkReport run(int step, double load, boolean repeat) throws Exception {
        RunConfig config = configs.of(base, step, load, repeat);
        RunStep.Result r = runStep.run(stack, session, config, control, id -> settings.output().report(id), false);
        if (r.exitCode() == 2) {
            usageError = true;
            return null;
        }
        err.println(SweepDriver.progressLine(settings, step, load, repeat, r.report()));
        if (!r.hasReport()) {
            return null;
        }
        reportIds.add(config.identity().runId());
        if (r.report().getStopped() != null) {
            stoppedRunIds.add(config.identity().runId());
        }
        if (req.visual().any()) {
            done.add(new SweepViews.Step(config.identity().runId(), step, r.reportFile(),
                    ArtifactJson.parse(r.report().getArtifactJson())));
        }
        return r.report();
    }
}
