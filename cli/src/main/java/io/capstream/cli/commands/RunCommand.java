package io.capstream.cli.commands;

import io.capstream.cli.options.AggregatorGroupOption;
import io.capstream.cli.options.DurationConverter;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.ReportWaitOptions;
import io.capstream.cli.options.RunOptions;
import io.capstream.cli.options.SimOptions;
import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.cli.runner.RunDriver;
import io.capstream.cli.runner.EventDelivery;
import io.capstream.cli.runner.RunRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code capstream run}: one capacity run end to end. With no {@code --bootstrap-servers} it starts
 * the embedded broker and the {@code mock://capstream} registry; it runs the report aggregator
 * in-process (unless {@code --no-aggregator}, or a {@code capstream aggregate} service of
 * {@code --aggregator-group} runs on the given Kafka); with no {@code --base-url} it targets the built-in
 * simulated engine. Writes the report and prints a summary, then the {@code --html} page and the
 * {@code --csv} rows when asked. See {@link RunDriver}.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a capacity benchmark (capacity-v3 protocol; labelled capacity-v4-reasoning when the model streams reasoning) and writes the anvil-serving.benchmark/v1 report.",
            "With no --bootstrap-servers an embedded Kafka broker, the in-memory registry and the report aggregator run in"
                + " this process; with no --base-url the built-in simulated engine is the target (engine capstream-sim)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every request completed and the report was written",
            "1:some requests failed, events were undelivered, or no report arrived (the report is still written when it arrives)",
            "2:usage error, or an endpoint no request reaches (nothing was sent)",
            "4:a stop rule (--max-error-rate, --max-consecutive-errors, --stop-on-saturation) ended the run early; its"
                + " report (capstream.stopped) was written",
            "130:stopped by Ctrl-C (SIGINT), after the orderly stop (requests in flight end, the report is still written)",
            "143:stopped by SIGTERM, likewise"})
public final class RunCommand implements Callable<Integer> {
    @Mixin
    RunOptions run = new RunOptions();

    @Option(names = "--output", paramLabel = "FILE",
            description = "Report file. " + VisualOutputOptions.FILE_RULE + " Default: capstream-report-<run_id>.json"
                    + " in the current directory.")
    String output;

    @Mixin
    VisualOutputOptions visual = new VisualOutputOptions();

    @Option(names = "--no-aggregator",
            description = "Do not run the report aggregator in-process and do not wait for a report (another"
                    + " 'capstream aggregate' consumes the events). Needs --bootstrap-servers.")
    boolean noAggregator;

    @Mixin
    AggregatorGroupOption aggregatorGroup = new AggregatorGroupOption();

    @Option(names = "--report-timeout", paramLabel = "DURATION", converter = DurationConverter.Signed.class,
            description = "How long to wait for the report after the last request, e.g. 90s, 5m (a bare number is"
                    + " seconds), 1s to 1 day. Default: 120s; with --workers " + DISTRIBUTED_REPORT_TIMEOUT_S + "s (past the aggregator's 5-minute incompleteness deadline, so that"
                    + " a run missing a dead worker's share is printed as an incomplete report).")
    Duration reportTimeout;

    /** Default {@code --report-timeout} of a run, seconds. */
    static final long REPORT_TIMEOUT_S = 120;
    /** Default {@code --report-timeout} of a distributed run, seconds: the incompleteness deadline plus a minute. */
    static final long DISTRIBUTED_REPORT_TIMEOUT_S = 360;

    @Option(names = "--event-delivery", paramLabel = "MODE",
            description = "When events go to Kafka: deferred holds them in memory until the last request has ended (the"
                    + " embedded broker and the in-process aggregator then start only after it), so that they take no"
                    + " CPU while requests are in flight; live sends"
                    + " them as they come (for consumers of a shared Kafka and long runs). auto: deferred with the"
                    + " embedded broker, live with --bootstrap-servers. One of: auto, live, deferred. Default: auto.")
    EventDelivery eventDelivery = EventDelivery.AUTO;

    @Option(names = "--workers", paramLabel = "N",
            description = "Distributed run: do not send the load here but publish the plan to N 'capstream worker'"
                    + " processes on the same Kafka (topic capstream.plan.<run id>, one partition per worker; clock"
                    + " offsets over capstream.control), each sending request indices i with i %% N == its share from"
                    + " one shared start instant (closed loop: --concurrency divided among them; open loop: the global"
                    + " schedule), then wait for the report as usual (--report-timeout counts after the start instant"
                    + " and, when the plan bounds it, the run's --duration or open-loop schedule). Needs"
                    + " --bootstrap-servers and --schema-registry-url, and N workers already running. 1.."
                    + DistributedRunOptions.MAX_WORKERS + ".")
    Integer workers;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Mixin
    SimOptions sim = new SimOptions();

    @Override
    public Integer call() {
        Duration reportTimeout = this.reportTimeout != null ? this.reportTimeout
                : Duration.ofSeconds(workers != null ? DISTRIBUTED_REPORT_TIMEOUT_S : REPORT_TIMEOUT_S);
        String range = DurationConverter.rangeProblem("--report-timeout", reportTimeout, 1,
                ReportWaitOptions.MAX_TIMEOUT_S);
        if (range != null) {
            System.err.println("capstream run: " + range + "; nothing was sent");
            return 2;
        }
        if (noAggregator && kafka.bootstrapServers() == null) {
            System.err.println("capstream run: --no-aggregator needs --bootstrap-servers (an embedded broker stops"
                    + " with this process)");
            return 2;
        }
        List<String> problems = new ArrayList<>(visual.problems(new VisualOutputOptions.Taken(output == null ? null : Path.of(output), "the report file itself")));
        if (noAggregator && visual.any()) {
            problems.add("--html and --csv need the report: not with --no-aggregator");
        }
        if (workers != null) {
            String bad = DistributedRunOptions.problem(workers, kafka);
            if (bad != null) {
                System.err.println("capstream run: " + bad);
                return 2;
            }
            String outputProblem = io.capstream.cli.report.OutputPath.check(output);
            if (outputProblem != null) {
                problems.add(0, outputProblem);
            }
        }
        RunRequest req = RunRequest.builder("run", run, sim).kafka(kafka.clientProperties())
                .schemaRegistryUrl(kafka.schemaRegistryUrl()).registryClient(kafka.registryClientConfig())
                .aggregator(!noAggregator).awaitReport(!noAggregator).output(output)
                .reportTimeout(reportTimeout)
                .eventDelivery(workers != null ? EventDelivery.LIVE : eventDelivery)
                .aggregatorGroup(aggregatorGroup.group()).visual(visual).build();
        RunDriver driver = new RunDriver(req, System.out, System.err, System::getenv);
        if (workers != null) {
            return driver.execute(problems, DistributedRunOptions.coordinator(req, workers));
        }
        return driver.execute(problems);
    }
}
