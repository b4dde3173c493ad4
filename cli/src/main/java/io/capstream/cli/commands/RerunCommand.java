package io.capstream.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.compare.CompareTable;
import io.capstream.cli.compare.NoiseVerdicts;
import io.capstream.cli.compare.RunComparison;
import io.capstream.cli.options.AggregatorGroupOption;
import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.ReportWaitOptions;
import io.capstream.cli.options.RunOptions;
import io.capstream.cli.options.SimOptions;
import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.cli.report.OutputPath;
import io.capstream.cli.rerun.PastRun;
import io.capstream.cli.rerun.RerunWorkload;
import io.capstream.cli.runner.EventDelivery;
import io.capstream.cli.runner.RunDriver;
import io.capstream.cli.runner.RunRequest;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code capstream rerun RUN_ID --base-url URL}: sends a past run's exact workload again, to another endpoint
 * (issue 15 part 4). The workload comes from the run's {@code RunStarted} on {@code capstream.events}
 * ({@link RerunWorkload}: the same prompts and, for an open loop, the same arrival offsets); the target from
 * the command line. Runs like {@code run} (report file, summary, {@code --html}/{@code --csv}), then prints the
 * comparison with the original's report from {@code capstream.reports} ({@link RunComparison}) with the same
 * noise-aware intervals and verdicts as {@code compare} ({@link NoiseVerdicts}).
 */
@Command(name = "rerun", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Re-sends a past run's exact workload (its prompts, and for an open loop its arrival offsets) to"
                + " another endpoint, then prints the comparison with the original run.",
            "The workload is read from the run's RunStarted on capstream.events, so it needs the Kafka and registry"
                + " the run was written to (--bootstrap-servers, --schema-registry-url; e.g. those of 'capstream up')."
                + " Only the target and client options may be given: --base-url (default: the built-in simulated"
                + " engine), --model (default: the original's), --engine, --gpu, --api-key-env, -H, --client-warmup,"
                + " --warmup-requests, --server-metrics, --run-id, and the original's --dataset/--tokenizer files when"
                + " it used them (the dataset is checked by its SHA-256); everything else is the original's, and the"
                + " workload options listed below are refused. Output: --output (default capstream-report-<RUN_ID>-rerun-"
                + "<UTC>.json), --report-timeout, --html, --csv; the --sim-* options shape the built-in engine."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every request completed and the report was written",
            "1:some requests failed, events were undelivered, or no report arrived",
            "2:usage error, or the run id has no RunStarted on capstream.events (nothing was sent)"})
public final class RerunCommand implements Callable<Integer> {
    /** Options that would change the workload: the original's values are used instead. */
    static final List<String> WORKLOAD_OPTIONS = List.of("--concurrency", "--rate", "--requests", "--burst",
            "--shared-prefix-tokens", "--ctx-tokens", "--seed", "--max-tokens", "--max-model-len", "--margin",
            "--timeout", "--thinking-mode", "--no-thinking", "--reasoning-effort", "--extra-body", "--endpoint",
            "--arrival", "--max-in-flight", "--duration", "--ramp-up", "--keep-alive", "--slo", "--run-id-suffix",
            "--input-tokens", "--output-tokens", "--prompt-salt", "--burstiness", "--rate-schedule", "--steady-state");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN_ID", description = "The past run whose workload is sent again.")
    String originalRunId;

    @Mixin
    RunOptions run = new RunOptions();

    @Option(names = "--output", paramLabel = "FILE",
            description = "Report file. " + VisualOutputOptions.FILE_RULE + " Default: capstream-report-<run_id>.json,"
                    + " the run id being <RUN_ID>-rerun-<UTC>.")
    String output;

    @Option(names = "--report-timeout", paramLabel = "DURATION", converter = DurationConverter.Signed.class,
            description = "How long to wait for the report after the last request, e.g. 90s, 5m (a bare number is"
                    + " seconds), 1s to 1 day. Default: " + RunCommand.REPORT_TIMEOUT_S + "s.")
    Duration reportTimeout = Duration.ofSeconds(RunCommand.REPORT_TIMEOUT_S);

    @Mixin
    VisualOutputOptions visual = new VisualOutputOptions();

    @Mixin
    AggregatorGroupOption aggregatorGroup = new AggregatorGroupOption();

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Mixin
    SimOptions sim = new SimOptions();

    @Override
    public Integer call() {
        List<String> problems = new ArrayList<>();
        for (String o : WORKLOAD_OPTIONS) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                problems.add(o + " cannot be given: rerun sends the workload of run " + originalRunId + " as it was");
            }
        }
        if (originalRunId.equals(run.runId())) {
            problems.add("--run-id " + originalRunId + " is the original's: the rerun's events would mix with its events"
                    + " and its report replace the original's (default: <RUN_ID>-rerun-<UTC>)");
        }
        try {
            run.baseUrl();
        } catch (IllegalArgumentException e) { // an empty --base-url
            problems.add(e.getMessage());
        }
        if (kafka.bootstrapServers() == null) {
            problems.add("needs --bootstrap-servers: the Kafka cluster that holds the run's events on " + Topics.EVENTS
                    + " (an embedded broker starts empty; e.g. the one 'capstream up' started)");
        }
        if (kafka.schemaRegistryUrl() == null) {
            problems.add("needs --schema-registry-url: the registry the events were written with");
        }
        String range = DurationConverter.rangeProblem("--report-timeout", reportTimeout, 1,
                ReportWaitOptions.MAX_TIMEOUT_S);
        if (range != null) {
            problems.add(range);
        }
        String outputProblem = OutputPath.check(output); // before the past run is read, with the other usage errors
        if (outputProblem != null) {
            problems.add(outputProblem);
        }
        problems.addAll(visual.problems(new VisualOutputOptions.Taken(
                output == null || outputProblem != null ? null : Path.of(output), "the report file itself")));
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("capstream rerun: " + p));
            return 2;
        }
        PastRun original;
        try {
            original = PastRun.read(kafka.clientProperties(), kafka.schemaRegistryUrl(), kafka.registryClientConfig(),
                    originalRunId);
        } catch (RuntimeException e) {
            System.err.println("capstream rerun: cannot read " + Topics.EVENTS + " on " + kafka.bootstrapServers() + ": "
                    + RunDriver.describe(e));
            return 1;
        }
        if (original == null) {
            System.err.println("capstream rerun: run " + originalRunId + " has no RunStarted on " + Topics.EVENTS + " at "
                    + kafka.bootstrapServers() + " (wrong run id, or the topic's retention dropped it); nothing was sent");
            return 2;
        }
        java.nio.file.Path file = run.trace() != null ? run.trace() : run.dataset();
        List<String> missing = RerunWorkload.missingInputs(original.started(), file, sha256(file), run.tokenizer());
        missing.addAll(RerunWorkload.missingTools(original.started(), run.tools(), sha256(run.tools())));
        if (run.trace() != null && !"trace".equals(original.started().getArrival())) {
            missing.add("--trace: the original run did not replay a trace (arrival " + original.started().getArrival() + ")");
        } else if (run.trace() == null && "trace".equals(original.started().getArrival()) && run.dataset() != null) {
            missing.add("--dataset: the original run replayed a trace; give it with --trace");
        }
        if (!missing.isEmpty()) {
            missing.forEach(p -> System.err.println("capstream rerun: " + p));
            return 2;
        }
        String runId = run.runId() != null ? run.runId()
                : originalRunId + "-rerun-" + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP);
        String model = run.model() != null ? run.model() : original.started().getModel();
        System.err.println("capstream rerun: run " + originalRunId + ": " + original.started().getRequests() + " requests, "
                + original.started().getArrival() + (original.started().getRateRps() == null ? ""
                : " at " + original.started().getRateRps() + " req/s")
                + (original.started().getRateSchedule() == null ? ""
                : " on the rate schedule " + original.started().getRateSchedule())
                + ", model " + model + " -> run " + runId);
        if (original.started().getMaxContextTokens() == null) {
            System.err.println("capstream rerun: note: the original's context window was unknown, so the plan is drawn"
                    + " again for this endpoint's window: the prompts may differ from the original's");
        }
        if (run.baseUrl() != null && sameEndpoint(run.baseUrl(), original.started().getBaseUrl())) {
            System.err.println("capstream rerun: note: the same prompts (the original's, its prompt salt included) go to"
                    + " the endpoint that served run " + originalRunId + ": a prefix cache there may still hold them,"
                    + " which lowers TTFT; restart the engine for a cold-cache comparison");
        }
        RunRequest req = RunRequest.builder("rerun", run, sim).kafka(kafka.clientProperties())
                .schemaRegistryUrl(kafka.schemaRegistryUrl()).registryClient(kafka.registryClientConfig())
                .aggregator(true).awaitReport(true).output(output)
                .reportTimeout(reportTimeout).eventDelivery(EventDelivery.AUTO)
                .aggregatorGroup(aggregatorGroup.group()).visual(visual)
                .adjust(c -> RerunWorkload.apply(c.withTarget(c.target().withModel(model)), original.started(), originalRunId,
                        runId))
                .build();
        int code = new RunDriver(req, System.out, System.err, System::getenv).execute(new ArrayList<>());
        printComparison(original, OutputPath.resolve(output, runId));
        return code;
    }

    /**
     * @param given    the rerun's {@code --base-url} (may carry user-info)
     * @param recorded the original's recorded base URL (user-info masked)
     * @return whether both name the same endpoint, compared without user-info and a trailing slash
     */
    static boolean sameEndpoint(String given, String recorded) {
        return recorded != null && strip(given).equals(strip(recorded));
    }

    private static String strip(String url) {
        String s = io.capstream.schemas.text.HttpUrls.withoutUserInfo(url);
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /** @return the SHA-256 of the file's bytes, lower-case hex; null for no file or an unreadable one */
    private static String sha256(Path file) {
        try {
            return file == null ? null : io.capstream.loadgen.workload.FileDigest.sha256(file);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** Prints the original-versus-rerun table, or why there is none. */
    private void printComparison(PastRun original, Path rerunReport) {
        if (!Files.isRegularFile(rerunReport)) {
            return; // the run printed why it has no report
        }
        if (original.report() == null) {
            System.err.println("capstream rerun: run " + originalRunId + " has no report on " + Topics.REPORTS
                    + ": nothing to compare with");
            return;
        }
        try {
            JsonNode a = ArtifactJson.mapper().readTree(original.report().getArtifactJson().toString());
            JsonNode b = ArtifactJson.read(rerunReport);
            RunComparison c = RunComparison.of(a, b);
            System.out.print(CompareTable.render(c, NoiseVerdicts.of(c, a, b), "original", rerunReport.toString()));
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("capstream rerun: cannot compare with the original: " + RunDriver.describe(e));
        }
    }
}
