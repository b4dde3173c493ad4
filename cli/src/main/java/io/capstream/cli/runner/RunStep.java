package io.capstream.cli.runner;

import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.progress.ProgressView;
import io.capstream.cli.report.ReportFile;
import io.capstream.cli.report.ReportWaiter;
import io.capstream.cli.report.RunViews;
import io.capstream.cli.report.SummaryTable;
import io.capstream.cli.stack.LocalStack;
import io.capstream.loadgen.emit.DeferredEventSink;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunControl;
import io.capstream.cli.servermetrics.ServerMetricsPublisher;
import io.capstream.loadgen.run.RunOutcome;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.RunSecrets;
import io.capstream.loadgen.run.StoppedBeforeStartException;
import io.capstream.loadgen.run.UsageException;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.Provenance;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One run on a started stack, the part that {@code run} does once and {@code sweep} once per step:
 * prepares the plan ({@link LoadGenerator#prepare}, the {@code GET /models} probe), runs the load with a
 * progress bar, delivers its events through the session ({@link DeliverySession#newRun()}), waits for
 * its report ({@link ReportWaiter}, up to the request's report timeout), writes the report file and,
 * when asked, prints the {@link SummaryTable} and writes the request's {@code --html}/{@code --csv} files
 * ({@link RunViews}). Messages go to stderr prefixed with
 * {@code capstream <command>:}. Not thread-safe; one step at a time.
 */
public final class RunStep {
    /**
     * What a step did.
     *
     * @param exitCode   0 every request completed, every event was delivered and a complete report was
     *                   written; 1 otherwise; 2 a usage error found by the preparation (nothing was sent);
     *                   {@value SloGate#EXIT_SLO_MISSED} (a run with its summary printed, otherwise 0) an
     *                   {@code --slo} was missed ({@link SloGate}); {@value RunOutcome#EXIT_STOPPED} a stop rule ended
     *                   the run early (issue 30) and its complete report was written;
     *                   130 stopped during the warm-up (nothing was sent)
     * @param outcome    what the load generator did, or null when the run did not start
     * @param report     the run's report, or null when none arrived (or none was awaited)
     * @param reportFile where the report was written, or null
     */
    public record Result(int exitCode, RunOutcome outcome, BenchmarkReport report, Path reportFile) {
        /** @return true when the run's report arrived and was written */
        public boolean hasReport() {
            return report != null;
        }
    }

    private final RunRequest req;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> env;
    private final String cmd;
    /** The endpoint check's warnings printed so far: a sweep prints each once, not once per step. */
    private final java.util.Set<String> warned = new java.util.HashSet<>();

    /**
     * @param req what the command runs (report timeout, event delivery, whether to wait for reports)
     * @param out summary table and result lines
     * @param err progress, notices and errors
     * @param env environment lookup (for {@code --api-key-env})
     */
    public RunStep(RunRequest req, PrintStream out, PrintStream err, Function<String, String> env) {
        this.req = req;
        this.out = out;
        this.err = err;
        this.env = env;
        this.cmd = "capstream " + req.commandName();
    }

    /**
     * Runs one run to its report.
     *
     * @param stack      the started stack
     * @param session    the session the run's events and report go through
     * @param config     the run's configuration, bound to its target; a run id set here is expected on
     *                   {@code capstream.reports} before any event is sent
     * @param control    early stop (SIGINT/SIGTERM)
     * @param reportFile the report file for a run id
     * @param summary    print the summary table and the {@code report written to} line on stdout
     * @return what the step did
     * @throws Exception when the preparation or the run fails unexpectedly (not for failed requests)
     */
    public Result run(LocalStack stack, DeliverySession session, RunConfig config, RunControl control,
                      Function<String, Path> reportFile, boolean summary) throws Exception {
        LoadGenerator generator = new LoadGenerator(stack.vertx(), env);
        RunPlan plan;
        try {
            plan = generator.prepare(config).get(RunDriver.PREPARE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UsageException u) {
                u.problems().forEach(p -> err.println(cmd + ": " + p));
                return new Result(2, null, null, null);
            }
            throw e;
        } catch (TimeoutException e) {
            err.println(cmd + ": the run could not be prepared within " + RunDriver.PREPARE_TIMEOUT.toSeconds()
                    + " s (GET /models probe); nothing was sent");
            return new Result(1, null, null, null);
        }
        plan.warnings().stream().filter(warned::add).forEach(w -> err.println(cmd + ": warning: " + w));
        // the last 'capstream check' of this target, read from its cache: sends nothing, takes no time (issue 33)
        io.capstream.cli.check.CachedVerdict.lineOnce(config.target().simulated() ? null : config.target().baseUrl(),
                config.target().model(), config.target().endpoint().label(), config.request(),
                io.capstream.cli.check.CheckCache.standard(env), java.time.Instant.now(), warned)
                .ifPresent(l -> err.println(cmd + ": " + l));
        if (config.identity().runId() != null) {
            session.expect(config.identity().runId());
        }
        boolean startsKafka = !stack.kafkaStarted(); // the embedded broker starts after this run's last request
        RunDelivery delivery = session.newRun();
        RunOutcome outcome;
        long undelivered;
        long events;
        String sinkError;
        EventSink sink = delivery.sink();
        // the run's future completes: every request ends (per-read --timeout), and a flush during an outage
        // ends after delivery.timeout.ms + max.block.ms (KafkaEventSink); SIGINT/SIGTERM stop it early
        // with Kafka at the end the deferred sink's opening is the embedded broker's start, not a wait for acks
        // (each of its steps named: the broker, the topics, the aggregator, the producer)
        Supplier<String> kafkaStart = startsKafka && sink instanceof DeferredEventSink d
                ? () -> d.opening() ? session.kafkaStartStep() : null : () -> null;
        try (ProgressView progress = ProgressView.forConsole().watchDelivery(sink::pending)
                .watchKafkaStart(kafkaStart)) {
            try {
                outcome = generator.run(plan, sink, progress, control).join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof StoppedBeforeStartException stopped) {
                    // SIGINT/SIGTERM during the warm-up: no RunStarted was emitted, so no report will come
                    err.println(cmd + ": " + stopped.getMessage() + "; nothing was sent to Kafka");
                    return new Result(130, null, null, null);
                }
                throw e;
            }
        } finally {
            undelivered = sink.close(RunDriver.SINK_CLOSE_TIMEOUT);
            events = sink.handedOver();
            sinkError = delivery.lastError();
        }
        publishServerMetrics(stack, outcome, plan);
        ReportWaiter awaiter = delivery.waiter();
        undelivered = Math.max(undelivered, outcome.eventsUndelivered());
        int code = outcome.exitCode();
        BenchmarkReport report = null;
        Path file = null;
        if (awaiter != null && undelivered == 0) {
            Optional<BenchmarkReport> got = awaitReport(awaiter, outcome.runId(), stack);
            String foreign = got.map(r -> ReportOwnership.foreign(r, outcome.workerId(), outcome.requestsSent()))
                    .orElse(null);
            if (foreign != null) {
                err.println(cmd + ": " + foreign);
                got = Optional.empty();
            }
            if (got.isEmpty()) {
                code = 1;
            } else {
                report = got.get();
                file = reportFile.apply(outcome.runId());
                // missing parents created, as for --html; a failed write (a full disk) goes to the temp directory
                ReportFile.Written written = ReportFile.write(file, report.getArtifactJson(), Path.of(
                        System.getProperty("java.io.tmpdir"), "capstream-report-" + outcome.runId() + ".json"));
                if (written.problem() != null) {
                    err.println(cmd + ": " + written.problem());
                    code = 1;
                }
                file = written.file() != null ? written.file() : file;
                if (summary) {
                    // the client check as the report has it: the aggregator computed its statistics
                    out.print(DistributedSummary.summary(report));
                    if (written.file() != null) {
                        out.println("report written to " + file);
                    }
                    if (!writeViews(report)) {
                        code = 1;
                    }
                }
                if (!summary) { // a sweep step: its summary is not printed, this line once per sweep
                    String noUsage = io.capstream.cli.report.UsageWarning.of(report.getMetrics(), report.getCompleted());
                    if (noUsage != null && warned.add(noUsage)) {
                        err.println(cmd + ": warning: " + noUsage);
                    }
                }
                Provenance p = report.getProvenance();
                if (!p.getComplete()) {
                    // an interrupted run's unsent requests are not lost events (a fresh user's Ctrl-C read as data loss)
                    long unsent = outcome.interrupted() ? DistributedSummary.unsentOfInterrupted(report) : -1;
                    err.println(cmd + ": " + (unsent >= 0 ? unsent + " planned request(s) were not sent (the run was"
                            + " interrupted); every request sent has its event" : RunDriver.incompleteReason(report)));
                    code = 1;
                }
            }
        } else if (!req.awaitReport()) {
            out.printf("run %s: %s; %s (Kafka %s)%n", outcome.runId(), outcome.counts(),
                    RunDriver.deliverySummary(events, undelivered), stack.kafka().bootstrapServers());
        }
        if (outcome.failed() > 0) {
            err.println(cmd + ": " + outcome.failed() + " of " + outcome.requestsSent() + " requests failed");
        }
        if (outcome.interrupted()) {
            err.println(cmd + ": the run was interrupted before every planned request ran");
        }
        if (undelivered > 0) {
            err.println(cmd + ": " + Math.min(undelivered, events) + " of " + events
                    + " events could not be delivered to Kafka" + (sinkError == null ? "" : " (" + sinkError + ")")
                    + (req.awaitReport() ? "; no report was awaited: it would be incomplete" : ""));
            code = 1;
        }
        if (outcome.stopped() != null) {
            io.capstream.schemas.avro.RunStop s = outcome.stopped();
            err.println(cmd + ": the run was stopped early by its stop rule " + s.getRule() + " (" + s.getDetail()
                    + "); " + (outcome.requestsPlanned() - outcome.requestsSent()) + " of " + outcome.requestsPlanned()
                    + " planned requests were not sent" + (code == RunOutcome.EXIT_STOPPED && summary ? "; exit code "
                    + RunOutcome.EXIT_STOPPED : ""));
        }
        if (summary) {
            code = SloGate.apply(report == null ? null : report.getSlo(), code, err, cmd);
        }
        return new Result(code, outcome, report, file);
    }

    /**
     * Writes the request's {@code --html}/{@code --csv} files of the report and prints their lines.
     *
     * @return false when one could not be written (the reason printed)
     */
    private boolean writeViews(BenchmarkReport report) {
        try {
            RunViews.write(report.getArtifactJson(), req.visual().html(), req.visual().csv()).forEach(out::println);
            return true;
        } catch (IOException | RuntimeException e) {
            err.println(cmd + ": cannot write the --html/--csv files: " + RunDriver.describe(e));
            return false;
        }
    }

    /** @return the report, or empty (with the reason printed) when none arrived in time */
    private Optional<BenchmarkReport> awaitReport(ReportWaiter awaiter, String runId, LocalStack stack)
            throws InterruptedException {
        Optional<BenchmarkReport> report = awaiter.await(runId, req.reportTimeout());
        if (report.isEmpty() && stack.aggregatorFailure() != null) {
            err.println(cmd + ": no report for run " + runId + ": " + stack.aggregatorFailure());
        } else if (report.isEmpty()) {
            err.println(cmd + ": no report for run " + runId + " arrived on capstream.reports within "
                    + DurationConverter.secondsText(req.reportTimeout()) + " s" + (stack.runningAggregatorGroup() == null ? ""
                    : " from the running aggregator (group " + stack.runningAggregatorGroup() + ")"));
        }
        return report;
    }

    /** Sends the run's server-metrics scrapes to their topic (a failure is a note: the run's numbers stand). */
    private void publishServerMetrics(LocalStack stack, RunOutcome outcome, RunPlan plan) throws InterruptedException {
        if (outcome.serverMetrics() == null || outcome.serverMetrics().scrapes().isEmpty() || stack.kafka() == null
                || stack.kafka().bootstrapServers() == null) {
            return;
        }
        String why = ServerMetricsPublisher.publish(stack.kafka(), stack.schemaRegistryUrl(), stack.registryClient(),
                outcome.serverMetrics(), outcome.runId(), outcome.workerId(), plan.config().target().baseUrl(),
                plan.config().target().model(), RunSecrets.of(plan.config(), plan.apiKey()));
        if (why != null) {
            err.println(cmd + ": note: " + why);
        }
    }
}
