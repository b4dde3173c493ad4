package io.capstream.cli.commands;

import io.capstream.cli.options.DurationConverter;
import io.capstream.schemas.time.CapClock;
import io.capstream.aggregator.slo.Slo;
import io.capstream.aggregator.slo.SloParseException;
import io.capstream.aggregator.slo.SloParser;
import io.capstream.cli.options.AggregatorGroupOption;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.ReportWaitOptions;
import io.capstream.cli.options.SimOptions;
import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.cli.options.WorkloadOptions;
import io.capstream.cli.runner.EventDelivery;
import io.capstream.cli.runner.RunRequest;
import io.capstream.cli.sweep.AutoRange;
import io.capstream.cli.sweep.AutoRates;
import io.capstream.cli.sweep.AxisValues;
import io.capstream.cli.sweep.LoadAxis;
import io.capstream.cli.sweep.SloSearch;
import io.capstream.cli.sweep.SweepDriver;
import io.capstream.cli.sweep.SweepOutput;
import io.capstream.cli.sweep.SweepSettings;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.schemas.text.RunIdRule;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code capstream sweep}: a series of runs over one load axis (issue 12, parts 1-2), each step a
 * normal run with its own run id and report, linked by the sweep id in their events: a grid
 * ({@code --concurrency 1,2,4,8}, {@code --rate 2:64:x2}) or an SLO search
 * ({@code --search concurrency|rate --slo ...}, {@link SloSearch}). Every run option but
 * {@code --concurrency N}/{@code --rate R} (here lists of steps), {@code --burst}, {@code --run-id}
 * and {@code --run-id-suffix} applies. Usage problems are all listed at once (exit 2) before anything
 * starts; see {@link SweepDriver} for the rest.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the same workload at a series of loads (a capacity curve) and finds the largest load meeting"
                + " the SLOs: a grid (--concurrency 1,2,4,8 or --rate 2:64:x2) or a search (--search concurrency|rate"
                + " --slo ...). Each step is a normal run with its own report; the aggregator turns them into the"
                + " sweep's curve on capstream.sweeps, written to --output-dir as sweep.json and sweep.csv.",
            "--html FILE writes the sweep's page (capacity curve) and each step's page beside its report;"
                + " --csv FILE one row per request of every step, with run_id and step columns.",
            "Every option of 'capstream run' applies (embedded stack by default, --bootstrap-servers for a real one,"
                + " the --sim-* options), except --burst, --run-id and --run-id-suffix."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every step has its report and the sweep's curve arrived",
            "1:a step got no report, or the curve did not arrive",
            "2:usage error, or an endpoint no request reaches (nothing was sent)",
            "130:stopped by Ctrl-C (SIGINT), after the current step's orderly stop",
            "143:stopped by SIGTERM, likewise"})
public final class SweepCommand implements Callable<Integer> {
    /** Now, for the sweep's id and plan (tests set their own). */
    CapClock clock = CapClock.system();
    /** Largest {@code --repeat}. */
    static final int MAX_REPEAT = 10;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    @Spec
    CommandSpec spec;

    @Option(names = "--concurrency", paramLabel = "LIST",
            description = "Concurrency axis (closed loop): one step per value, a list 1,2,4,8 or a range START:END:xF"
                    + " (geometric, e.g. 1:32:x2) or START:END:+D (arithmetic, e.g. 1:10:+1); whole numbers of slots,"
                    + " at most " + AxisValues.MAX_STEPS + " steps.")
    String concurrency;

    @Option(names = "--rate", paramLabel = "LIST",
            description = "Arrival-rate axis (open loop, --arrival poisson unless constant or gamma is given), req/s: a list"
                    + " 2,4.5,8 or a range such as 2:64:x2 or 2:10:+2; or auto[:N] (as GuideLLM's sweep): a"
                    + " synchronous step (1 request at a time) and a throughput step (every request at once, up to"
                    + " --max-in-flight) measure the lowest and highest rate, then N rates (default "
                    + AutoRates.DEFAULT_RATES + ") evenly spaced above the lowest, up to the highest.")
    String rate;

    @Option(names = "--search", paramLabel = "AXIS",
            description = "SLO search on concurrency or rate instead of a grid: doubles the load from --search-start"
                    + " until a step misses an SLO, narrows the bracket by interpolating the SLOs' margins, then"
                    + " repeats the winner to confirm it; stops at 1 slot (concurrency) or 10%% (rate). Needs --slo.")
    String search;

    @Option(names = "--search-start", paramLabel = "LOAD", description = "First load of the search. Default: 1.")
    Double searchStart;

    @Option(names = "--search-max", paramLabel = "LOAD",
            description = "Largest load the search tries. Default: 1024 slots, or 1000 req/s.")
    Double searchMax;

    @Option(names = "--max-steps", paramLabel = "N",
            description = "Most steps of a search, the confirmation included (1.." + AxisValues.MAX_STEPS
                    + "). Default: ${DEFAULT-VALUE}.")
    int maxSteps = 12;

    @Option(names = "--repeat", paramLabel = "N",
            description = "Run each load N times (1.." + MAX_REPEAT + ", a grid or a search; each run a step of"
                    + " its own): prints per load the mean over the runs with its 95%% interval and coefficient of"
                    + " variation, and decides the SLOs by the interval: a load meets an SLO only when the whole"
                    + " interval is on the good side (one that contains the threshold does not). Default: 1.")
    int repeat = 1;

    @Mixin
    WorkloadOptions run = new WorkloadOptions();

    @Option(names = "--sweep-id", paramLabel = "ID",
            description = "Sweep id (the key of its curve on capstream.sweeps); step N runs as <sweep id>-sN."
                    + " Default: sweep-YYYYMMDDTHHMMSSZ (UTC start).")
    String sweepId;

    @Option(names = "--output-dir", paramLabel = "DIR",
            description = "Where the step reports (<run id>.json), sweep.json and sweep.csv go (created when missing)."
                    + " Default: capstream-sweep-<sweep id> in the current directory.")
    Path outputDir;

    @Option(names = "--report-timeout", paramLabel = "DURATION", converter = DurationConverter.Signed.class,
            description = "How long to wait for each step's report after its last request, and for the sweep's"
                    + " curve at the end, e.g. 90s, 5m (a bare number is seconds), 1s to 1 day. Default: "
                    + RunCommand.REPORT_TIMEOUT_S + "s.")
    Duration reportTimeout = Duration.ofSeconds(RunCommand.REPORT_TIMEOUT_S);

    @Option(names = "--event-delivery", paramLabel = "MODE",
            description = "When events go to Kafka, as for 'capstream run': auto (deferred with the embedded broker,"
                    + " live with --bootstrap-servers), live or deferred. Default: auto.")
    EventDelivery eventDelivery = EventDelivery.AUTO;

    @Mixin
    VisualOutputOptions visual = new VisualOutputOptions();

    @Mixin
    AggregatorGroupOption aggregatorGroup = new AggregatorGroupOption();

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Mixin
    SimOptions sim = new SimOptions();

    /** The axis {@link #resolve} found, even when its values have problems; null when none was given. */
    private LoadAxis checkedAxis;

    @Override
    public Integer call() {
        List<String> problems = new ArrayList<>();
        SweepSettings settings = resolve(problems, clock.instant());
        // the run options are checked at the first step's load (the axis's loop), even when the axis has problems
        LoadAxis axis = settings != null ? settings.axis() : checkedAxis;
        double first = settings == null || settings.autoRates() != null ? 1 : settings.grid() != null
                ? settings.grid().get(0) : settings.search().start();
        UnaryOperator<RunConfig> firstStep = axis == null ? null : c -> axis.apply(c, first);
        RunRequest req = RunRequest.builder("sweep", run, sim).kafka(kafka.clientProperties())
                .schemaRegistryUrl(kafka.schemaRegistryUrl()).registryClient(kafka.registryClientConfig())
                .aggregator(true).awaitReport(true).reportTimeout(reportTimeout)
                .eventDelivery(eventDelivery).aggregatorGroup(aggregatorGroup.group()).adjust(firstStep).visual(visual).build();
        return new SweepDriver(problems.isEmpty() ? settings : null, req, System.out, System.err, System::getenv)
                .execute(problems);
    }

    /**
     * Resolves the sweep's own options, adding one line per problem.
     *
     * @param problems receives the usage problems
     * @param now      the sweep's start (the default sweep id)
     * @return the settings, or null when they could not be resolved (the problems say why)
     */
    SweepSettings resolve(List<String> problems, Instant now) {
        boolean cliConcurrency = matched("--concurrency");
        boolean cliRate = matched("--rate");
        String conc = concurrency;
        String rt = rate;
        // a config file or the environment may hold a run's --concurrency/--rate: the command line wins
        if (conc != null && rt != null && cliConcurrency != cliRate) {
            if (cliConcurrency) {
                rt = null;
            } else {
                conc = null;
            }
        }
        LoadAxis axis = null;
        List<Double> grid = null;
        SloSearch.Settings searchSettings = null;
        Integer autoRates = null;
        List<Slo> slos = parsedSlos();
        if (search != null) {
            try {
                axis = LoadAxis.parse(search);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
            if (cliConcurrency || cliRate) {
                problems.add("--search chooses the loads itself: give no --concurrency or --rate list with it");
            }
            if (run.slos().isEmpty()) {
                problems.add("--search needs at least one --slo (it looks for the largest load meeting them)");
            }
            if (maxSteps < 1 || maxSteps > AxisValues.MAX_STEPS) {
                problems.add("--max-steps must be between 1 and " + AxisValues.MAX_STEPS + ", got " + maxSteps);
            }
            if (axis != null) {
                searchSettings = searchSettings(axis, problems);
            }
        } else if (conc != null && rt != null) {
            problems.add("--concurrency and --rate are two axes: give one (or --search concurrency|rate)");
        } else if (conc == null && rt == null) {
            problems.add("give the load axis: --concurrency LIST (closed loop), --rate LIST (open loop) or"
                    + " --search concurrency|rate");
        } else if (rt != null && AutoRates.isAuto(rt)) {
            axis = LoadAxis.RATE;
            try {
                autoRates = AutoRates.parseCount(rt, AxisValues.MAX_STEPS);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        } else {
            axis = conc != null ? LoadAxis.CONCURRENCY : LoadAxis.RATE;
            AxisValues.Parsed parsed = AxisValues.parse(axis, conc != null ? conc : rt);
            problems.addAll(parsed.problems());
            grid = parsed.problems().isEmpty() ? parsed.values() : null;
        }
        if (repeat < 1 || repeat > MAX_REPEAT) {
            problems.add("--repeat must be 1.." + MAX_REPEAT + ", got " + repeat);
        } else if (repeat > 1 && autoRates != null) {
            problems.add("--repeat applies to a grid or a search, not to --rate auto");
        }
        if (run.burst() != 0) {
            problems.add("--burst does not apply to a sweep (each step's load comes from its axis)");
        }
        if (spec != null && spec.findOption("--rate-schedule") != null
                && spec.findOption("--rate-schedule").getValue() != null) {
            problems.add("sweep does not take --rate-schedule (each step's load comes from its axis)");
        }
        if (run.trace() != null) {
            problems.add("--trace does not apply to a sweep (the trace's timestamps are its load; use run --trace)");
        }
        if (run.runId() != null || run.runIdSuffix() != null) {
            problems.add("--run-id and --run-id-suffix do not apply to a sweep: step N runs as <sweep id>-sN"
                    + " (give --sweep-id)");
        }
        if (axis != null) {
            arrivalProblem(axis, problems);
        }
        checkedAxis = axis;
        String range = DurationConverter.rangeProblem("--report-timeout", reportTimeout, 1,
                ReportWaitOptions.MAX_TIMEOUT_S);
        if (range != null) {
            problems.add(range);
        }
        String id = sweepId != null ? sweepId : "sweep-" + STAMP.format(now);
        int lastStep = (grid != null ? grid.size() : autoRates != null ? autoRates : Math.max(1, maxSteps))
                * Math.max(1, Math.min(repeat, MAX_REPEAT));
        String idProblem = RunIdRule.problem(id);
        String runIdProblem = RunIdRule.problem(id + "-s" + lastStep);
        if (runIdProblem == null && autoRates != null) {
            runIdProblem = RunIdRule.problem(id + AutoRange.SYNCHRONOUS_SUFFIX);
        }
        if (idProblem != null) {
            problems.add("--sweep-id " + idProblem + (idProblem.startsWith("must not contain '") ? ": '" + id + "'" : ""));
        } else if (runIdProblem != null) {
            int length = Math.max((id + "-s" + lastStep).length(),
                    autoRates != null ? (id + AutoRange.SYNCHRONOUS_SUFFIX).length() : 0);
            problems.add("--sweep-id makes the step run ids " + length + " characters long, at most "
                    + RunIdRule.MAX_LENGTH);
        }
        SweepOutput output = new SweepOutput(outputDir != null ? outputDir : Path.of("capstream-sweep-" + id));
        if (idProblem == null) {
            String outputProblem = output.check();
            if (outputProblem != null) {
                problems.add(outputProblem);
            }
        }
        problems.addAll(visual.problems(output.taken()));
        if (!problems.isEmpty() || axis == null) {
            return null;
        }
        return new SweepSettings(id, axis, grid, searchSettings, output, slos, autoRates, repeat);
    }

    private SloSearch.Settings searchSettings(LoadAxis axis, List<String> problems) {
        double start = searchStart != null ? searchStart : 1;
        double max = searchMax != null ? searchMax : axis.defaultSearchMax();
        int before = problems.size();
        if (!(start > 0) || !Double.isFinite(start)) {
            problems.add("--search-start must be > 0, got " + LoadAxis.RATE.format(start));
        }
        if (!(max > 0) || !Double.isFinite(max)) {
            problems.add("--search-max must be > 0, got " + LoadAxis.RATE.format(max));
        }
        if (axis.integral()) {
            if (start != Math.rint(start) || max != Math.rint(max)) {
                problems.add("--search concurrency: --search-start and --search-max are whole numbers of slots");
            }
            if (max > RunConfig.MAX_REQUESTS) {
                problems.add("--search-max exceeds " + RunConfig.MAX_REQUESTS + " slots");
            }
        }
        if (problems.size() == before && max < start) {
            problems.add("--search-max " + axis.format(max) + " is below --search-start " + axis.format(start));
        }
        if (problems.size() != before || maxSteps < 1) {
            return null;
        }
        return new SloSearch.Settings(axis, start, max, maxSteps);
    }

    private void arrivalProblem(LoadAxis axis, List<String> problems) {
        String arrival = run.arrival().trim().toLowerCase(java.util.Locale.ROOT);
        if (axis == LoadAxis.CONCURRENCY && !arrival.equals("closed")) {
            problems.add("--concurrency steps run a closed loop: --arrival " + arrival + " needs --rate steps");
        } else if (axis == LoadAxis.RATE && arrival.equals("closed") && matched("--arrival")) {
            problems.add("--rate steps run an open loop: --arrival must be constant, poisson or gamma (default"
                    + " poisson)");
        }
    }

    /** @return the SLOs that parse (the bad ones are reported by the run checks), in order */
    private List<Slo> parsedSlos() {
        List<Slo> out = new ArrayList<>();
        for (String s : run.slos()) {
            try {
                out.add(SloParser.parse(s));
            } catch (SloParseException e) {
                // listed by RunDriver.checkRun
            }
        }
        return out;
    }

    /** @return whether the option was given on the command line (not by the environment or a config file) */
    private boolean matched(String option) {
        return spec != null && spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption(option);
    }
}
