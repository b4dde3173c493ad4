package io.capstream.cli.sweep;

import io.capstream.aggregator.slo.Slo;
import io.capstream.aggregator.sweep.SweepCurves;
import io.capstream.cli.runner.DeliverySession;
import io.capstream.cli.runner.RunDriver;
import io.capstream.cli.runner.RunRequest;
import io.capstream.cli.runner.RunStep;
import io.capstream.cli.runner.SloGate;
import io.capstream.cli.stack.LocalStack;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunControl;
import io.capstream.loadgen.run.WarmupConfig;
import io.capstream.loadgen.workload.PromptBuilder;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunStatistics;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.LoadHealth;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepStep;
import io.capstream.schemas.report.ReportView;
import io.capstream.schemas.report.SweepJson;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code capstream sweep}: a series of runs over one load axis on one stack (issue 12, parts 1-2).
 * Everything {@code run} checks and starts is done once by {@link RunDriver#execute(List, RunDriver.StackWork)}
 * (one {@link LocalStack}, one producer and report waiter in a {@link DeliverySession}; with the
 * embedded broker it starts after the first step's last request); then each step is a
 * {@link RunStep} with the same workload at the step's load ({@link LoadAxis#apply}), run id
 * {@code <sweep id>-s<step>} and {@code RunStarted.sweep} set, the client warm-up only before step 1.
 * The steps are the grid's values, or those {@link SloSearch} chooses. After each step one progress
 * line goes to stderr; at the end the driver waits (up to the report timeout) for the sweep's
 * {@link SweepCurve} on {@code capstream.sweeps} ({@link SweepWaiter}), writes {@code sweep.json} and
 * {@code sweep.csv} ({@link SweepOutput}), prints the {@link SweepTable} and writes the {@code --html} and
 * {@code --csv} files when asked ({@link SweepViews}). SIGINT/SIGTERM stop the
 * current step (its report is still awaited) and the sweep.
 *
 * <p>Exit codes: 0 every step has its report and the curve arrived; 1 otherwise; 2 usage error
 * (every problem listed at once, before anything starts); {@value SloGate#EXIT_SLO_MISSED} SLOs were given and no
 * load met them.
 */
public final class SweepDriver {
    /** Bound of the curve wait after a stop by SIGINT/SIGTERM (the stop hook waits 30 s in all). */
    private static final Duration CURVE_WAIT_AFTER_STOP = Duration.ofSeconds(10);

    private final SweepSettings settings;
    private final RunRequest req;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> env;
    private final String cmd;
    /** Source of each step's prompt salt. */
    private final java.util.random.RandomGenerator saltRandom = new java.security.SecureRandom();

    /**
     * @param settings the sweep, or null when the options could not be resolved (then the usage problems
     *                 given to {@link #execute} are printed and nothing runs)
     * @param req      the run options every step shares ({@code commandName} sweep, reports awaited)
     * @param out      the table and result lines
     * @param err      progress lines, notices and errors
     * @param env      environment lookup (for {@code --api-key-env})
     */
    public SweepDriver(SweepSettings settings, RunRequest req, PrintStream out, PrintStream err,
                       Function<String, String> env) {
        this.settings = settings;
        this.req = req;
        this.out = out;
        this.err = err;
        this.env = env;
        this.cmd = "capstream " + req.commandName();
    }

    /**
     * @param commandProblems the sweep's own usage problems (axis, search, output directory, ...); listed
     *                        after the run options' problems; must not be empty when the settings are null
     * @return the exit code (0, 1 or 2)
     */
    public int execute(List<String> commandProblems) {
        if (settings == null && commandProblems.isEmpty()) {
            throw new IllegalArgumentException("no sweep settings and no problem to report");
        }
        return new RunDriver(req, out, err, env).execute(commandProblems, this::sweep);
    }

    /** The steps, the curve and the files, on the started stack. */
    private int sweep(LocalStack stack, DeliverySession session, RunConfig base, RunControl control) throws Exception {
        boolean existed = java.nio.file.Files.isDirectory(settings.output().dir());
        settings.output().create();
        CurveSource curves = new CurveSource(err, cmd);
        session.onKafkaReady(curves::attach);
        if (!stack.embeddedKafka() && RunDriver.reportExists(stack.kafka(), settings.runId(1))) {
            err.println(cmd + ": warning: capstream.reports already has a report for run id " + settings.runId(1)
                    + "; a reused sweep id mixes two sweeps: give a new --sweep-id");
        }
        String bound = requestsBound(settings, base);
        if (bound != null) {
            err.println(cmd + ": warning: " + bound);
        }
        SweepSteps steps = new SweepSteps(settings, req, new RunStep(req, out, err, env), this::stepConfig, err, stack,
                session, base, control);
        try {
            boolean complete;
            if (settings.grid() != null) {
                complete = steps.grid();
            } else if (settings.autoRates() != null) {
                complete = steps.auto();
            } else {
                complete = steps.search();
            }
            if (steps.usageError()) {
                if (!existed && steps.reportIds().isEmpty()) {
                    removeEmpty(settings.output().dir());
                }
                return 2;
            }
            if (steps.reportIds().isEmpty()) {
                err.println(cmd + ": no step produced a report; no sweep curve");
                return 1;
            }
            Duration wait = control.stopRequested() ? CURVE_WAIT_AFTER_STOP : req.reportTimeout();
            Optional<SweepCurve> curve = curves.await(settings.sweepId(), steps.reportIds(), wait, stack);
            if (curve.isEmpty()) {
                return 1;
            }
            AutoRange auto = steps.autoRange();
            settings.output().writeCurve(curve.get(), auto == null ? null : auto.toJson());
            out.print(SweepTable.render(curve.get(), steps.stoppedRunIds()));
            if (!steps.repeats().isEmpty()) {
                out.print(RepeatSummary.render(steps.repeats(), settings.axis()));
            }
            out.println("sweep written to " + settings.output().dir().resolve(SweepOutput.SWEEP_JSON) + " and "
                    + SweepOutput.SWEEP_CSV + ", " + steps.reportIds().size() + " step report(s) in "
                    + settings.output().dir());
            if (!writeViews(curve.get(), auto, steps.done())) {
                return 1;
            }
            if (complete && !curve.get().getSlos().isEmpty() && curve.get().getMaxLoadMeetingSlos() == null) {
                err.println(cmd + ": no load met the SLOs; exit code " + SloGate.EXIT_SLO_MISSED);
                return SloGate.EXIT_SLO_MISSED;
            }
            return complete ? 0 : 1;
        } finally {
            curves.close();
        }
    }

    /**
     * Writes the {@code --html}/{@code --csv} files of the sweep ({@link SweepViews}) and prints their lines.
     *
     * @return false when one could not be written (the reason printed)
     */
    private boolean writeViews(SweepCurve curve, AutoRange auto, List<SweepViews.Step> done) {
        if (!req.visual().any()) {
            return true;
        }
        try {
            com.fasterxml.jackson.databind.node.ObjectNode json = SweepJson.toJson(curve);
            if (auto != null) {
                json.set(AutoRange.JSON_KEY, auto.toJson());
            }
            SweepViews.write(json, done, req.visual().html(), req.visual().csv())
                    .forEach(out::println);
            return true;
        } catch (java.io.IOException | RuntimeException e) {
            err.println(cmd + ": cannot write the --html/--csv files: " + RunDriver.describe(e));
            return false;
        }
    }

    /** Removes the directory this sweep created when nothing was written to it (a step 1 stopped before load). */
    private static void removeEmpty(java.nio.file.Path dir) {
        try {
            java.nio.file.Files.deleteIfExists(dir);
        } catch (java.io.IOException | RuntimeException e) {
            // not empty, or not ours to remove: left as it is
        }
    }

    /**
     * @param settings the sweep
     * @param base     the resolved options
     * @return e.g. {@code "concurrency 16, 32 exceed --requests 10: those steps cannot have more than 10 requests in
     *         flight (raise --requests)"} for a concurrency grid with loads above the run's requests, else null
     */
    static String requestsBound(SweepSettings settings, RunConfig base) {
        if (settings.grid() == null || settings.axis() != LoadAxis.CONCURRENCY) {
            return null;
        }
        int requests = base.load().effectiveRequests();
        List<String> above = settings.grid().stream().filter(v -> v > requests).map(settings.axis()::format).toList();
        return above.isEmpty() ? null : "concurrency " + String.join(", ", above) + " exceed" + (above.size() == 1
                ? "s" : "") + " --requests " + requests + ": " + (above.size() == 1 ? "that step cannot" : "those steps"
                + " cannot") + " have more than " + requests + " requests in flight (raise --requests)";
    }

    /**
     * The run configuration of one step.
     *
     * @param base   the resolved options (bound to the target)
     * @param step   1-based step number
     * @param load   the step's load
     * @param repeat the search's confirmation
     * @return {@code base} at the step's load, with run id {@code <sweep id>-s<step>}, the sweep step in its
     *         report context, no warm-up after step 1 (nor at step 1 of {@code --rate auto}: its synchronous step
     *         had it), and a prompt salt of its own when {@code base} has one
     *         ({@code --prompt-salt run}, the sweep's default), so that no step re-sends the prompts of another
     *         and measures the server's prefix cache instead of its load
     */
    RunConfig stepConfig(RunConfig base, int step, double load, boolean repeat) {
        SweepStep s = SweepStep.newBuilder().setSweepId(settings.sweepId()).setStep(step)
                .setAxis(settings.axis().wireName()).setValue(load).setMode(settings.mode()).setRepeat(repeat)
                .setStepsPlanned(settings.planned()).build();
        RunConfig c = settings.axis().apply(base, load)
                .withIdentity(base.identity().withRunId(settings.runId(step)).withRunIdSuffix(null))
                .withReport(base.report().withSweep(s));
        if (base.request().promptSalt() != null) {
            c = c.withRequest(c.request().withPromptSalt(PromptBuilder.randomSalt("run", saltRandom)));
        }
        // --rate auto: the client warmed up before the synchronous step
        return step == 1 && settings.autoRates() == null ? c : c.withWarmup(WarmupConfig.NONE);
    }

    /**
     * @param report a step's report with its SLO evaluation ({@code slo} not null)
     * @param slos   the search's SLOs
     * @return met = {@link SweepCurves#meetsSlos} (the curve's rule: every SLO met, and the load really
     *         applied: not behind schedule, not interrupted, complete); observed values and attainments
     *         matched to {@code slos} by their text (else position)
     */
    static SloSearch.Observation observation(BenchmarkReport report, List<Slo> slos) {
        SloReport slo = report.getSlo();
        List<Double> observed = new ArrayList<>();
        List<Double> attainment = new ArrayList<>();
        List<SloAttainment> given = slo.getSlos();
        for (int i = 0; i < slos.size(); i++) {
            SloAttainment match = null;
            for (SloAttainment a : given) {
                if (a.getSlo().trim().equals(slos.get(i).text())) {
                    match = a;
                    break;
                }
            }
            if (match == null && i < given.size()) {
                match = given.get(i);
            }
            observed.add(match == null ? null : match.getObserved());
            attainment.add(match == null ? null : match.getAttainment());
        }
        return new SloSearch.Observation(Boolean.TRUE.equals(SweepCurves.meetsSlos(report)), observed, attainment);
    }

    /**
     * The progress line after a step, e.g.
     * {@code capstream sweep: step 3/6 concurrency 4: TTFT p95 212.4 ms, 3.1 req/s, SLOs met}.
     *
     * @param settings the sweep
     * @param step     1-based step number
     * @param load     the step's load
     * @param repeat   the search's confirmation
     * @param report   the step's report, or null when none arrived
     * @return the line (without a line end)
     */
    static String progressLine(SweepSettings settings, int step, double load, boolean repeat, BenchmarkReport report) {
        LoadAxis axis = settings.axis();
        StringBuilder sb = new StringBuilder("capstream sweep: step ").append(step);
        if (settings.planned() != null) {
            sb.append('/').append(settings.planned());
        }
        sb.append(' ').append(axis.wireName()).append(' ').append(axis.format(load));
        if (!axis.integral()) {
            sb.append(" req/s");
        }
        if (repeat) {
            sb.append(" (repeat)");
        }
        if (report == null) {
            return sb.append(": no report").toString();
        }
        io.capstream.schemas.avro.Distribution latency = report.getStatistics() == null ? null
                : report.getStatistics().getRequestLatencyMs(); // embeddings, rerank (issue 30): no TTFT
        Double p95 = latency != null ? latency.getP95()
                : report.getMetrics() == null ? null : report.getMetrics().getTtftP95Ms();
        sb.append(latency != null ? ": request latency p95 " : ": TTFT p95 ")
                .append(p95 == null ? "-" : String.format(Locale.ROOT, "%.1f", p95)).append(" ms, ")
                .append(fmt(requestsPerS(report))).append(" req/s");
        SloReport slo = report.getSlo();
        LoadHealth health = report.getLoad();
        boolean capped = ReportView.heldByInFlightCap(health);
        if (capped) {
            sb.append(String.format(Locale.ROOT, ", HELD BY THE CLIENT'S IN-FLIGHT CAP (--max-in-flight %d: achieved"
                            + " %s of the %s req/s asked): not the endpoint's limit, no SLO verdict; raise"
                            + " --max-in-flight to measure this load", health.getOfferedConcurrency(),
                    fmt(health.getAchievedRateRps()), fmt(health.getOfferedRateRps() != null
                            ? health.getOfferedRateRps() : load)));
        } else if (health != null && health.getBehindSchedule()) {
            sb.append(String.format(Locale.ROOT, ", BEHIND its schedule (achieved %s req/s, scheduled %s, asked %s;"
                            + " client queue up to %.0f ms): counts as missing the SLOs", fmt(health.getAchievedRateRps()),
                    fmt(health.getScheduledRateRps()), fmt(health.getOfferedRateRps() != null
                            ? health.getOfferedRateRps() : load),
                    health.getQueueMaxMs() == null ? 0.0 : health.getQueueMaxMs()));
        }
        if (health != null && health.getInterrupted()) {
            sb.append(", interrupted: counts as missing the SLOs");
        }
        if (report.getStopped() != null) {
            sb.append(String.format(Locale.ROOT, ", STOPPED by %s at %.2f s (%s): counts as missing the SLOs",
                    report.getStopped().getRule(), report.getStopped().getAtMs() / 1000, report.getStopped().getDetail()));
        }
        if (slo != null && slo.getMetAll()) {
            if (Boolean.TRUE.equals(SweepCurves.meetsSlos(report))) {
                sb.append(", SLOs met");
            }
        } else if (slo != null && !capped) {
            sb.append(", SLOs MISSED:");
            for (SloAttainment a : slo.getSlos()) {
                if (!a.getMet()) {
                    sb.append(' ').append(a.getSlo()).append(" (observed ")
                            .append(a.getObserved() == null ? "none" : fmt(a.getObserved())).append(')');
                }
            }
        } else if (!settings.slos().isEmpty()) {
            sb.append(", SLOs not evaluated");
        }
        return sb.append(distortion(report)).toString();
    }

    /**
     * The client's own warning about a step, as {@code run}'s summary prints it under the client check: a sweep
     * prints no summary per step, and a step whose client was late (a busy machine) can miss an SLO by itself.
     *
     * @param report the step's report; not null
     * @return {@code "; warning: the client may have distorted these numbers: ..."}, or "" when its artifact's
     *         {@code capstream.client.distorted} is not true (or the artifact cannot be read)
     */
    static String distortion(BenchmarkReport report) {
        com.fasterxml.jackson.databind.JsonNode client;
        try {
            client = io.capstream.schemas.artifact.ArtifactJson.parse(report.getArtifactJson()).path("capstream")
                    .path("client");
        } catch (java.io.IOException | RuntimeException e) {
            return "";
        }
        if (!client.path("distorted").asBoolean(false)) {
            return "";
        }
        List<String> warnings = new ArrayList<>();
        client.path("warnings").forEach(w -> warnings.add(w.asText()));
        return "; warning: the client may have distorted these numbers: " + String.join("; ", warnings);
    }

    /** @return completed requests per second of the step's wall clock, or null */
    static Double requestsPerS(BenchmarkReport report) {
        RunStatistics s = report.getStatistics();
        if (s != null && s.getRequestThroughputRps() != null) {
            return s.getRequestThroughputRps();
        }
        Double wall = report.getWallClockMs();
        return wall == null || wall <= 0 ? null : report.getCompleted() * 1000.0 / wall;
    }

    private static String fmt(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.0f" : Math.abs(v) >= 10 ? "%.1f"
                : "%.2f", v);
    }
}
