package io.capstream.cli.runner;

import io.capstream.cli.distributed.AssignmentWait;
import io.capstream.cli.distributed.ClockOffset;
import io.capstream.cli.distributed.ControlListener;
import io.capstream.cli.distributed.ControlMessage;
import io.capstream.cli.distributed.ControlTopic;
import io.capstream.cli.distributed.PlanCleanup;
import io.capstream.cli.distributed.PlanPublisher;
import io.capstream.cli.distributed.PlanTopic;
import io.capstream.cli.distributed.ShareWatch;
import io.capstream.cli.report.ReportWaiter;
import io.capstream.cli.stack.LocalStack;
import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.emit.EventSink;
import io.capstream.loadgen.run.EventFactory;
import io.capstream.loadgen.run.LoadGenerator;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunControl;
import io.capstream.loadgen.run.RunIds;
import io.capstream.loadgen.run.RunPlan;
import io.capstream.loadgen.run.UsageException;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.text.HttpUrls;
import io.capstream.schemas.time.CapClock;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;

/**
 * The coordinator of a distributed run ({@code run --workers N}, {@code generate --workers N}): prepares
 * the plan as a one-process run does ({@link LoadGenerator#prepare}, the {@code GET /models} probe),
 * estimates its clock offset, deletes plan topics other coordinators left behind ({@link PlanCleanup}), creates
 * the plan topic and waits until each of N workers holds one of its partitions ({@link AssignmentWait}: ends
 * the run within seconds when no worker holds a share), emits the run's one {@code RunStarted} (expected_workers
 * = N, started at the shared start instant), writes the N shares ({@link PlanPublisher}) and, for {@code run},
 * waits for the report, writes it, prints the summary and deletes the plan topic. While it waits it reads the
 * workers' refusals on {@link ControlTopic} (a refused share, or one not taken
 * {@link ShareLooks#UNTAKEN_GIVE_UP} after the start, gives the run up at once: {@link ShareLooks}) and, on
 * SIGINT/SIGTERM, sends the workers a stop of the run; when a worker says its share tripped a stop rule (issue 30,
 * {@link ControlMessage#TRIPPED}) it sends every worker a stop for that rule (they record the rule
 * {@code coordinator}) and awaits the report as usual; the report's output is {@link DistributedSummary}'s. It
 * sends no request itself. Exit codes as {@link RunStep}'s: 0 a complete report without failed requests (or, without
 * waiting, the plan published), 1 otherwise, 2 usage errors found by the preparation, 130 interrupted. Not
 * thread-safe.
 */
public final class DistributedRunStep {
    private final RunRequest req;
    private final int workers;
    private final Duration lead;
    private final PrintStream out;
    private final PrintStream err;
    private final Function<String, String> env;
    private final String cmd;
    private final CapClock clock;
    /** After a stop (SIGINT/SIGTERM) sent to the workers, how long the report is still awaited (below the hook's 30 s). */
    static final Duration STOP_REPORT_WAIT = Duration.ofSeconds(15);
    /** Longest wait for the workers' group to give each worker one share before the plan is written. */
    static final Duration ASSIGNMENT_TIMEOUT = Duration.ofSeconds(15);

    /**
     * @param req     what the command runs (report timeout, output, whether to wait)
     * @param workers N, the number of shares and of workers expected, &gt;= 1
     * @param lead    time from the publication to the shared start instant; positive
     * @param out     summary and result lines
     * @param err     notices and errors
     * @param env     environment lookup (for {@code --api-key-env})
     */
    public DistributedRunStep(RunRequest req, int workers, Duration lead, PrintStream out, PrintStream err,
                              Function<String, String> env) {
        this(req, workers, lead, out, err, env, CapClock.system());
    }

    /**
     * @param req     what the command runs (report timeout, output, whether to wait)
     * @param workers N, the number of shares and of workers expected, &gt;= 1
     * @param lead    time from the publication to the shared start instant; positive
     * @param out     summary and result lines
     * @param err     notices and errors
     * @param env     environment lookup (for {@code --api-key-env})
     * @param clock   the clock of the run ids, the shared start instant and the report wait's deadline
     */
    public DistributedRunStep(RunRequest req, int workers, Duration lead, PrintStream out, PrintStream err,
                              Function<String, String> env, CapClock clock) {
        this.clock = clock;
        this.req = req;
        this.workers = workers;
        this.lead = lead;
        this.out = out;
        this.err = err;
        this.env = env;
        this.cmd = "capstream " + req.commandName();
    }

    /**
     * @param stack      the started stack (external Kafka)
     * @param session    the session RunStarted and the report go through
     * @param config     the run's configuration, bound to its target
     * @param control    early stop (SIGINT/SIGTERM) of the wait
     * @param reportFile the report file for a run id
     * @return the exit code
     * @throws Exception when the preparation or the publication fails unexpectedly
     */
    public int run(LocalStack stack, DeliverySession session, RunConfig config, RunControl control,
                   Function<String, Path> reportFile) throws Exception {
        java.util.List<String> problems = usageProblems(config, workers);
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println(cmd + ": " + p));
            return 2;
        }
        config = config.withIdentity(config.identity().withExpectedWorkers(workers));
        RunPlan plan;
        try {
            plan = new LoadGenerator(stack.vertx(), env).prepare(config)
                    .get(RunDriver.PREPARE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UsageException u) {
                u.problems().forEach(p -> err.println(cmd + ": " + p));
                return 2;
            }
            throw e;
        } catch (TimeoutException e) {
            err.println(cmd + ": the run could not be prepared within " + RunDriver.PREPARE_TIMEOUT.toSeconds()
                    + " s (GET /models probe); nothing was sent");
            return 1;
        }
        plan.warnings().forEach(w -> err.println(cmd + ": warning: " + w));
        String runId = RunIds.runId(clock.instant(), config.identity().runId(), config.identity().runIdSuffix());
        String coordinatorId = "coordinator-" + runId;
        Queue<ControlMessage> refusals = new ConcurrentLinkedQueue<>();
        try (PlanPublisher publisher = new PlanPublisher(stack.kafka(), stack.schemaRegistryUrl(),
                stack.registryClient())) {
            ClockOffset offset = publisher.clockOffset(coordinatorId);
            List<String> cleaned = publisher.deleteStalePlans(offset);
            if (!cleaned.isEmpty()) {
                err.println(cmd + ": note: deleted " + cleaned.size() + " plan topic(s) older than "
                        + PlanCleanup.MAX_AGE.toMinutes() + " minutes that their coordinator left behind: "
                        + String.join(", ", cleaned));
            }
            try (ControlListener listener = publisher.listen(runId, m -> {
                if (ControlMessage.REFUSED.equals(m.type()) || ControlMessage.TRIPPED.equals(m.type())) {
                    refusals.add(m); // refusals and tripped stop rules (issue 30), in order
                }
            })) {
                return publishAndAwait(stack, session, config, control, reportFile, plan, runId, coordinatorId,
                        publisher, offset, refusals);
            }
        }
    }

    private int publishAndAwait(LocalStack stack, DeliverySession session, RunConfig config, RunControl control,
                                Function<String, Path> reportFile, RunPlan plan, String runId, String coordinatorId,
                                PlanPublisher publisher, ClockOffset offset, Queue<ControlMessage> refusals)
            throws Exception {
        AssignmentWait.Result assigned = publisher.createAndAwaitAssignment(runId, workers, ASSIGNMENT_TIMEOUT,
                control::stopRequested);
        switch (assigned.outcome()) {
            case STOPPED -> {
                err.println(cmd + ": run " + runId + ": interrupted before the plan was published; nothing was sent");
                deletePlan(publisher, runId);
                return 130;
            }
            case NO_WORKER -> {
                err.println(cmd + ": run " + runId + ": no worker holds a share after "
                        + Math.round(assigned.waited().toMillis() / 1000.0) + " s (" + assigned.last().describe()
                        + "); start a 'capstream worker' with the same --bootstrap-servers and --schema-registry-url"
                        + " for each of the " + workers + " shares, then run again; nothing was sent");
                deletePlan(publisher, runId);
                return 1;
            }
            case PARTIAL -> err.println(cmd + ": run " + runId + ": Kafka did not give each of " + workers
                    + " workers one share within " + ASSIGNMENT_TIMEOUT.toSeconds() + " s (" + (assigned.last() == null
                    ? "the group did not answer" : assigned.last().describe()) + "); writing the plan anyway: a worker"
                    + " holding several shares runs them all, a share nobody holds waits for a worker");
            default -> {
            }
        }
        long startLocalMs = clock.millis() + lead.toMillis();
        long startBrokerMs = offset.toBroker(startLocalMs);
        RunEvent started = new EventFactory(runId, coordinatorId, plan).runStarted(Instant.ofEpochMilli(startLocalMs));
        session.expect(runId);
        RunDelivery delivery = session.newRun();
        EventSink sink = delivery.sink();
        sink.send(started);
        long undelivered = sink.close(RunDriver.SINK_CLOSE_TIMEOUT);
        if (undelivered > 0) {
            err.println(cmd + ": RunStarted could not be delivered to Kafka"
                    + (delivery.lastError() == null ? "" : " (" + delivery.lastError() + ")") + "; no plan was published");
            deletePlan(publisher, runId);
            return 1;
        }
        publisher.publish(runId, coordinatorId, (RunStarted) started.getPayload(), config, workers, startBrokerMs);
        err.printf("%s: run %s: plan of %d requests published to %d workers on %s, start at %s (broker clock;"
                        + " this clock %+.1f ms +/- %.1f ms)%n", cmd, runId, plan.requests(), workers,
                PlanTopic.name(runId), Instant.ofEpochMilli(startBrokerMs), offset.offsetMs(), offset.uncertaintyMs());
        if (!req.awaitReport()) {
            out.println("run " + runId + ": plan published to " + workers + " workers (Kafka "
                    + stack.kafka().bootstrapServers() + ")");
            return 0;
        }
        ReportWaiter waiter = delivery.waiter();
        Awaited a = waiter == null ? new Awaited(null, null, false)
                : await(waiter, new ShareLooks(publisher, runId, workers, startLocalMs, err, cmd, clock), config, plan, control, publisher,
                refusals);
        if (a.givenUp() != null) {
            String why = publisher.send(ControlMessage.stop(runId, a.givenUp()));
            err.println(cmd + ": run " + runId + ": " + a.givenUp() + "; the run is given up: "
                    + (why == null ? "the other workers were asked to stop their shares" : "the other workers could not"
                    + " be asked to stop (" + why + ")") + ", and the aggregator publishes it incomplete after its"
                    + " incompleteness deadline");
            deletePlan(publisher, runId);
            return 1;
        }
        if (a.report() == null) {
            if (a.interrupted()) {
                err.println(cmd + ": run " + runId + ": interrupted; its report did not arrive within "
                        + STOP_REPORT_WAIT.toSeconds() + " s of the stop (the aggregator publishes it on"
                        + " capstream.reports once every worker's RunFinished is in: 'capstream report " + runId + "')");
                deletePlan(publisher, runId);
                return 130;
            }
            ShareWatch.Status shares = publisher.shares(runId, workers);
            err.println(cmd + ": no report for run " + runId + " arrived on capstream.reports within "
                    + lead.plus(waitBound(config, plan)).plus(req.reportTimeout()).toSeconds() + " s"
                    + (shares == null ? "" : " (" + shares.describe() + ")")
                    + (stack.aggregatorFailure() == null ? "" : ": " + stack.aggregatorFailure()));
            // the run is given up: a worker that starts later must not take its shares
            deletePlan(publisher, runId);
            return 1;
        }
        deletePlan(publisher, runId);
        int code = new DistributedSummary(req, out, err).written(a.report(), reportFile.apply(runId), a.interrupted());
        if (a.interrupted()) {
            err.println(cmd + ": run " + runId + " was interrupted: the workers stopped their shares early; the report"
                    + " counts the requests that ran");
            return 130;
        }
        return code;
    }

    /** Sends every worker the stop of a rule one of them tripped, and says so. */
    private void stopForRule(PlanPublisher publisher, String runId, ControlMessage trip) throws InterruptedException {
        String what = "worker " + trip.workerId() + " (share " + trip.share() + ") tripped stop rule " + trip.rule()
                + ": " + trip.reason();
        String why = publisher.send(ControlMessage.stopForRule(runId, trip.rule(), what));
        err.println(cmd + ": run " + runId + ": " + what + "; " + (why == null
                ? "the other workers were asked to stop their shares (" + ControlTopic.NAME + ")"
                : "the other workers could not be asked to stop their shares (" + why + ")"));
    }

    private void deletePlan(PlanPublisher publisher, String runId) {
        String why = publisher.deletePlan(runId);
        if (why != null) {
            err.println(cmd + ": note: the plan topic " + PlanTopic.name(runId) + " was not deleted: " + why);
        }
    }

    /**
     * The usage errors of a distributed run that its configuration shows, checked before the registry, Kafka or
     * the target is contacted: credentials in the base URL and {@code -H} headers (not sent to workers), per-request
     * lengths, fewer slots than workers, and a run id that cannot name the plan topic.
     *
     * @param config  the run's resolved configuration; not null
     * @param workers N, &gt;= 1
     * @return one message per problem (without the command prefix); empty when there is none
     */
    public static java.util.List<String> usageProblems(RunConfig config, int workers) {
        java.util.List<String> problems = new java.util.ArrayList<>();
        if (config.target().baseUrl() != null && HttpUrls.userInfo(config.target().baseUrl()) != null) {
            problems.add("--workers: credentials in --base-url (user:password@) are not sent to workers; use"
                    + " --api-key-env with the variable set on every worker");
        }
        if (!config.target().headers().isEmpty()) {
            problems.add("--workers: -H headers are not sent to workers (the plan holds no header values, they may"
                    + " be secrets); run them in one process");
        }
        if (config.load().arrival() == ArrivalMode.TRACE) { // a trace sets the dataset too: name the option given
            problems.add("--workers: --trace is not sent to workers (the trace's lines are one schedule); run it in"
                    + " one process");
        } else if (config.request().perRequestLengths()) {
            problems.add("--workers: --dataset, --input-tokens and --output-tokens are not sent to workers yet;"
                    + " run them in one process");
        }
        boolean open = config.load().arrival() != ArrivalMode.CLOSED;
        int slots = open ? config.load().effectiveMaxInFlight() : config.load().effectiveConcurrency();
        if (slots < workers) {
            problems.add("--workers " + workers + " needs " + (open ? "--max-in-flight" : "--concurrency")
                    + " of at least " + workers + " (each worker gets a part of it), got " + slots);
        }
        // only the id's characters matter here: a generated id's time part is always valid
        String runId = RunIds.runId(Instant.EPOCH, config.identity().runId(), config.identity().runIdSuffix());
        try {
            Topic.validate(PlanTopic.name(runId));
        } catch (InvalidTopicException e) {
            problems.add("--workers: run id '" + runId + "' cannot name the plan topic (letters, digits, '.',"
                    + " '_' and '-' only)");
        }
        return problems;
    }

    /**
     * The report is awaited for the lead time, plus this, plus {@code --report-timeout} after the publication.
     *
     * @return the run's own length when the plan bounds it ({@code --duration}, the open-loop schedule), else 0
     */
    static Duration waitBound(RunConfig config, RunPlan plan) {
        double runS = 0;
        if (config.load().durationS() != null) {
            runS = config.load().durationS();
        } else if (config.load().arrival() != ArrivalMode.CLOSED && config.load().rateSchedule() != null) {
            // the time by which the schedule offers the planned requests; one ending at rate 0 offers none after its
            // last point
            var schedule = config.load().rateSchedule();
            runS = schedule.rateAt(Double.POSITIVE_INFINITY) == 0
                    ? Math.min(schedule.timeOf(plan.requests()), schedule.lastPointS())
                    : schedule.timeOf(plan.requests());
        } else if (config.load().arrival() != ArrivalMode.CLOSED && config.load().rateRps() != null) {
            runS = plan.requests() / config.load().rateRps();
        }
        return Duration.ofMillis((long) (runS * 1000));
    }

    /**
     * How the wait for the report ended.
     *
     * @param report      the report, or null
     * @param givenUp     why the run was given up before its report (a refused share, a share nobody took in
     *                    time), or null
     * @param interrupted whether the coordinator was asked to stop (SIGINT/SIGTERM) and stopped the workers
     */
    private record Awaited(BenchmarkReport report, String givenUp, boolean interrupted) {
    }

    private Awaited await(ReportWaiter waiter, ShareLooks looks, RunConfig config, RunPlan plan, RunControl control,
                          PlanPublisher publisher, Queue<ControlMessage> refusals) throws InterruptedException {
        String runId = looks.runId();
        // the future registered before the shares were written: a report that came while the coordinator was
        // still busy is in it
        CompletableFuture<BenchmarkReport> f = waiter.expect(runId);
        long deadline = clock.nanoTime() + lead.plus(waitBound(config, plan)).plus(req.reportTimeout()).toNanos();
        boolean interrupted = false;
        boolean stoppedForRule = false;
        try {
            while (clock.nanoTime() < deadline) {
                if (!interrupted && control.stopRequested()) {
                    interrupted = true;
                    String why = publisher.send(ControlMessage.stop(runId, "its coordinator was interrupted"));
                    err.println(cmd + ": run " + runId + ": interrupted: " + (why == null
                            ? "the workers were asked to stop their shares (" + ControlTopic.NAME + ")"
                            : "the workers could not be asked to stop their shares (" + why + ")")
                            + "; waiting up to " + STOP_REPORT_WAIT.toSeconds() + " s for the report");
                    deadline = Math.min(deadline, clock.nanoTime() + STOP_REPORT_WAIT.toNanos());
                }
                if (!interrupted) {
                    ControlMessage refused = refusals.poll();
                    if (refused != null && ControlMessage.TRIPPED.equals(refused.type())) {
                        // a worker tripped a stop rule (issue 30): every other worker stops too, the report comes
                        if (!stoppedForRule) {
                            stoppedForRule = true;
                            stopForRule(publisher, runId, refused);
                        }
                        refused = null;
                    }
                    if (refused != null) {
                        return new Awaited(null, "worker " + refused.workerId() + " refused share " + refused.share()
                                + " of " + workers + ": " + refused.reason(), false);
                    }
                    String untaken = looks.look();
                    if (untaken != null) {
                        return new Awaited(null, untaken, false);
                    }
                }
                try {
                    return new Awaited(f.get(200, TimeUnit.MILLISECONDS), null, interrupted);
                } catch (TimeoutException e) {
                    // keep waiting
                } catch (ExecutionException e) {
                    return new Awaited(null, null, interrupted);
                }
            }
            return new Awaited(null, null, interrupted);
        } finally {
            waiter.forget(runId);
        }
    }
}
