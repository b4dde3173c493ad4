package io.capstream.cli.commands;

import io.capstream.cli.compare.CompareJson;
import io.capstream.cli.compare.CompareTable;
import io.capstream.cli.compare.NoiseVerdicts;
import io.capstream.cli.compare.RegressionGate;
import io.capstream.cli.compare.ComparePage;
import io.capstream.cli.compare.RunComparison;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.cli.report.ReportSources;
import io.capstream.cli.report.RunViews;
import io.capstream.schemas.artifact.ArtifactJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code capstream compare A B [--html FILE]}: two reports (each a file or a run id, {@link ReportArguments})
 * metric by metric ({@link RunComparison}, printed by {@link CompareTable}) with the workload differences, a change
 * within {@code --threshold PCT} (default {@link RunComparison#DEFAULT_THRESHOLD}) being "same"; the percentile rows
 * also get B - A's 95% interval over both runs' requests and a verdict ({@link NoiseVerdicts}: regression,
 * improvement, within noise); {@code --json} prints them as JSON ({@link CompareJson}); {@code --fail-on-regression}
 * exits {@link RegressionGate#EXIT_REGRESSION} when a named metric regressed ({@link RegressionGate});
 * {@code --html} writes the side-by-side page ({@link ComparePage}).
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compares two runs' reports metric by metric: TTFT, TTFO, E2E, ITL and inter-chunk latency"
                + " percentiles, throughputs, completed and failed requests and goodput, each with B's absolute and"
                + " relative change from A and whether that is better, worse or the same (within --threshold);"
                + " then the workload settings that differ.",
            "Percentile rows (TTFT, TTFO, E2E, ITL) also get the 95%% interval of B-A, bootstrapped from both runs'"
                + " per-request samples, and a verdict: regression or improvement when the whole interval is on one"
                + " side of 0, else within noise. Reports without per-request samples get no interval and no verdict.",
            "A and B are report files (anvil-serving.benchmark/v1) when such paths exist, else run ids read from"
                + " capstream.reports (needs --bootstrap-servers and --schema-registry-url)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the comparison was printed (and the page written)",
            "1:Kafka or the schema registry did not answer, or the page could not be written",
            "2:usage error, unknown run id, or a file that is not a readable report",
            "3:a --fail-on-regression metric regressed (beyond its threshold)"})
public final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "The baseline: a report file or a run id.")
    String a;

    @Parameters(index = "1", paramLabel = "B", description = "The run compared with A: a report file or a run id.")
    String b;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write a side-by-side HTML page (metric table, workload differences, TTFT and E2E"
                    + " CDFs of both runs; self-contained, works offline). " + VisualOutputOptions.FILE_RULE)
    String html; // as given: checked by VisualOutputOptions.fileProblem before it becomes a Path

    @Option(names = "--threshold", paramLabel = "PCT",
            description = "For the rows without an interval (run-level numbers such as throughput, too few"
                    + " requests, no per-request samples): a relative change from A within +/-PCT %% is \"same\","
                    + " beyond it \"better\" or \"worse\". 0 calls every printed change. Default: ${DEFAULT-VALUE}.")
    double thresholdPct = RunComparison.DEFAULT_THRESHOLD * 100;

    @Option(names = "--json", description = "Print the comparison as JSON: {\"metrics\": {\"ttft_p50_ms\": {\"a\","
            + " \"b\", \"difference\", \"relative\", \"interval\": [low, high], \"verdict\"}, ...}} (interval and"
            + " verdict null, with a \"reason\", where there is none), the runs and the workload differences.")
    boolean json;

    @Option(names = "--fail-on-regression", paramLabel = "METRIC[:THRESHOLD]",
            description = "Exit 3 when METRIC (a percentile, e.g. ttft_p95_ms or e2e_p50_ms) is a regression; with"
                    + " THRESHOLD (a relative change such as 10%%) only when the whole 95%% interval of B-A is beyond"
                    + " it. Repeatable. A metric without a verdict (no per-request samples, too few values) is"
                    + " reported on stderr and does not fail.")
    List<String> failOnRegression = new ArrayList<>();

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> problems = new ArrayList<>(ReportArguments.usageProblems(List.of(a, b), kafka));
        if (!(thresholdPct >= 0 && thresholdPct < 100)) {
            problems.add("--threshold must be a percentage >= 0 and < 100, got " + thresholdPct);
        }
        RegressionGate gate = RegressionGate.parse(failOnRegression, problems);
        String htmlProblem = VisualOutputOptions.fileProblem("--html", html, "compare.html");
        Path htmlFile = html == null || htmlProblem != null ? null : Path.of(html);
        if (htmlProblem == null) {
            htmlProblem = VisualOutputOptions.collision("--html", htmlFile, readTaken(a, "report A"),
                    readTaken(b, "report B"));
        }
        if (htmlProblem != null) {
            problems.add(htmlProblem);
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("capstream compare: " + p));
            return 2;
        }
        ReportArguments.Loaded loaded = ReportArguments.load(List.of(a, b), kafka, "capstream compare", err);
        if (loaded.exitCode() != 0) {
            return loaded.exitCode();
        }
        ReportSources.Found ra = loaded.reports().get(0);
        ReportSources.Found rb = loaded.reports().get(1);
        RunComparison c = RunComparison.of(ra.artifact(), rb.artifact(), thresholdPct / 100);
        NoiseVerdicts verdicts = NoiseVerdicts.of(c, ra.artifact(), rb.artifact());
        if (json) {
            try {
                out.println(ArtifactJson.mapper().writerWithDefaultPrettyPrinter()
                        .writeValueAsString(CompareJson.render(c, verdicts, ra.source(), rb.source())));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        } else {
            out.print(CompareTable.render(c, verdicts, ra.source(), rb.source()));
        }
        if (htmlFile != null) {
            try {
                RunViews.writeFile(htmlFile, ComparePage.render(c, ra.artifact(), rb.artifact()));
                (json ? err : out).println("html: " + htmlFile);
            } catch (IOException | RuntimeException e) {
                out.flush();
                err.println("capstream compare: cannot write " + htmlFile + ": " + e.getMessage());
                return 1;
            }
        }
        out.flush();
        gate.unjudged(verdicts).forEach(line -> err.println("capstream compare: --fail-on-regression " + line));
        List<String> failures = gate.failures(verdicts);
        failures.forEach(line -> err.println("capstream compare: " + line));
        err.flush();
        return failures.isEmpty() ? 0 : RegressionGate.EXIT_REGRESSION;
    }

    /** @return the argument as a file the command reads (which --html may not replace), or null for a run id */
    private static VisualOutputOptions.Taken readTaken(String source, String name) {
        Path p = Path.of(source);
        return Files.exists(p) ? new VisualOutputOptions.Taken(p, name + ", which is being read") : null;
    }
}
