package io.capstream.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.importer.ArtifactImporter;
import io.capstream.aggregator.importer.ArtifactValidationException;
import io.capstream.aggregator.importer.ImportPlan;
import io.capstream.aggregator.importer.MetricComparison;
import io.capstream.cli.options.AggregatorGroupOption;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.ReportOptionTexts;
import io.capstream.cli.options.ReportWaitOptions;
import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.cli.report.ReportFiles;
import io.capstream.cli.report.ReportPipeline;
import io.capstream.cli.report.ReportPipelineConfig;
import io.capstream.cli.report.ReportsOnCluster;
import io.capstream.cli.report.RunViews;
import io.capstream.schemas.Topics;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.ReportKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code capstream import FILE|DIR...}: turns each {@code anvil-serving.benchmark/v1} artifact with
 * rows into the events that would have produced it, runs them through the report topology, writes
 * the recomputed report to {@code --output-dir} under the input's file name (same run id), and
 * prints whether every metric matched the file's own (1e-9 relative). Rowless artifacts (legacy,
 * capacity-v2) are published to {@code capstream.reports} unchanged as IMPORTED_SUMMARY. Invalid
 * files get one line {@code <file>: <field>: <problem>} and nothing of them is published.
 *
 * <p>Exit codes: 0 every file imported and matched; 1 some file was invalid, mismatched or got no
 * report; 2 usage error, a path that does not exist or cannot be read included (nothing is imported then: a
 * mistyped path is not an invalid artifact).
 */
@Command(name = "import", mixinStandardHelpOptions = true, resourceBundle = ReportOptionTexts.BASE_NAME,
        description = {
            "Recompute reports from past benchmark artifacts (anvil-serving.benchmark/v1) through the report topology.",
            "Each artifact with request_timings becomes the events that would have produced it; the recomputed report"
                    + " is written to --output-dir under the input's file name and compared with the file's own metrics"
                    + " (MATCHED / MISMATCH). Artifacts without rows (legacy, capacity-v2) are published to"
                    + " capstream.reports unchanged (IMPORTED_SUMMARY). Without --bootstrap-servers an embedded broker,"
                    + " an in-memory schema registry and the report topology run inside this process.",
            "--html FILE and --csv FILE (one artifact only) also write the recomputed report's page and its"
                    + " per-request CSV."
        })
public final class ImportCommand implements Callable<Integer> {
    /** Files whose report requests are in flight together (distinct run ids). */
    private static final int WINDOW = 16;

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafkaOptions;

    @Parameters(arity = "1..*", paramLabel = "FILE|DIR",
            description = "Artifact files, or directories whose *.json files are imported (sorted by name).")
    List<Path> inputs = new ArrayList<>();

    @Mixin
    ReportWaitOptions reports;

    @Mixin
    AggregatorGroupOption aggregatorGroup = new AggregatorGroupOption();

    @Mixin
    VisualOutputOptions visual = new VisualOutputOptions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (kafkaOptions.bootstrapServers() != null && kafkaOptions.schemaRegistryUrl() == null) {
            err.println("capstream import: --bootstrap-servers needs --schema-registry-url (events on a shared"
                    + " cluster must be readable by other processes)");
            return 2;
        }
        String problem = reports.usageProblem(kafkaOptions.bootstrapServers() != null);
        if (problem != null) {
            err.println("capstream import: " + problem);
            return 2;
        }
        List<String> visualProblems = visual.problems();
        if (!visualProblems.isEmpty()) {
            visualProblems.forEach(p -> err.println("capstream import: " + p));
            return 2;
        }
        List<String> unreadable = inputs.stream().map(ImportCommand::inputProblem).filter(p -> p != null).toList();
        if (!unreadable.isEmpty()) {
            unreadable.forEach(p -> err.println("capstream import: " + p));
            return 2;
        }

        List<Path> files = new ArrayList<>();
        int invalid = 0;
        for (Path input : inputs) {
            if (Files.isDirectory(input)) {
                try (Stream<Path> s = Files.list(input)) {
                    s.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p))
                            .sorted().forEach(files::add);
                } catch (IOException e) {
                    out.println(input + ": <file>: cannot list directory: " + e.getMessage());
                    invalid++;
                }
            } else {
                files.add(input);
            }
        }

        if (visual.any() && files.size() != 1) {
            err.println("capstream import: --html and --csv take one artifact file, got " + files.size()
                    + " (import the file alone to get its page)");
            return 2;
        }
        if (visual.any()) {
            List<String> collisions = visual.problems(new VisualOutputOptions.Taken(files.get(0),
                    "the artifact being imported"));
            if (!collisions.isEmpty()) {
                collisions.forEach(p -> err.println("capstream import: " + p));
                return 2;
            }
        }

        Map<Path, ImportPlan> plans = new LinkedHashMap<>();
        for (Path file : files) {
            try {
                plans.put(file, ArtifactImporter.plan(file));
            } catch (ArtifactValidationException e) {
                out.println(e.getMessage());
                invalid++;
            } catch (RuntimeException e) {
                out.println(file.getFileName() + ": <file>: cannot import: " + e);
                invalid++;
            }
        }
        int present = 0;
        Tally tally = new Tally();
        if (!plans.isEmpty()) {
            ReportPipelineConfig config = ReportPipelineConfig.forCommand(kafkaOptions, !reports.externalAggregator(),
                    aggregatorGroup.group());
            try (ReportPipeline pipeline = ReportPipeline.start(config, "import", err)) {
                present = dropRunsOnCluster(plans, out); // Kafka answered (the pipeline's start checked)
                try (Progress progress = new Progress(err, plans.size())) {
                    importAll(pipeline, plans, out, progress, tally);
                }
            } catch (RuntimeException e) {
                err.println("capstream import: " + e.getMessage());
                return 1;
            }
        }
        int recomputable = (int) plans.values().stream().filter(p -> !p.summaryOnly()).count();
        int summaries = plans.size() - recomputable;
        int total = recomputable + invalid + present;
        out.printf("%d of %d matched", tally.matched, total);
        List<String> extra = new ArrayList<>();
        if (tally.mismatched > 0) {
            extra.add(tally.mismatched + " mismatched");
        }
        if (invalid > 0) {
            extra.add(invalid + " invalid");
        }
        if (tally.failed > 0) {
            extra.add(tally.failed + " without report");
        }
        if (present > 0) {
            extra.add(present + " already on the cluster, not imported");
        }
        if (summaries > 0) {
            extra.add(tally.summaries + " of " + summaries + " summary-only published unchanged");
        }
        out.println(extra.isEmpty() ? "" : " (" + String.join(", ", extra) + ")");
        out.flush();
        boolean ok = invalid == 0 && present == 0 && tally.failed == 0 && tally.mismatched == 0 && tally.summaries == summaries;
        return ok ? 0 : 1;
    }

    /**
     * On a shared cluster, leaves out the artifacts whose run id already has a report there (a fresh user's import of
     * a run that had run on the cluster counted its requests twice in the windows and replaced its live report).
     *
     * @return how many were left out, each with a line on {@code out}
     */
    private int dropRunsOnCluster(Map<Path, ImportPlan> plans, PrintWriter out) {
        if (kafkaOptions.bootstrapServers() == null || plans.isEmpty()) {
            return 0; // an embedded broker of this process's own holds nothing yet
        }
        Map<String, ReportKind> there = ReportsOnCluster.kinds(kafkaOptions,
                plans.values().stream().map(ImportPlan::runId).toList());
        int present = 0;
        for (var it = plans.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            String id = e.getValue().runId();
            if (there.containsKey(id)) {
                ReportKind kind = there.get(id);
                String what = kind == null ? "a" : kind == ReportKind.LIVE || kind == ReportKind.REPLAY ? "a "
                        + kind.name().toLowerCase(java.util.Locale.ROOT) : "an imported";
                out.println(e.getKey().getFileName() + ": <cluster>: run " + id + " already has " + what
                        + " report on " + Topics.REPORTS + ": not imported again (its requests would be counted twice in"
                        + " the window summaries and that report replaced); 'capstream report " + id + "' shows it");
                it.remove();
                present++;
            }
        }
        return present;
    }

    private void importAll(ReportPipeline pipeline, Map<Path, ImportPlan> plans, PrintWriter out, Progress progress,
                           Tally tally) {
        List<Map.Entry<Path, ImportPlan>> window = new ArrayList<>();
        Set<String> runIds = new HashSet<>();
        for (Map.Entry<Path, ImportPlan> e : plans.entrySet()) {
            if (window.size() == WINDOW || runIds.contains(e.getValue().runId())) {
                runWindow(pipeline, window, out, progress, tally);
                window.clear();
                runIds.clear();
            }
            window.add(e);
            runIds.add(e.getValue().runId());
        }
        runWindow(pipeline, window, out, progress, tally);
    }

    /** Produces the events of up to {@link #WINDOW} files, then collects their reports in input order. */
    private void runWindow(ReportPipeline pipeline, List<Map.Entry<Path, ImportPlan>> window, PrintWriter out,
                           Progress progress, Tally tally) {
        List<CompletableFuture<BenchmarkReport>> futures = new ArrayList<>();
        for (Map.Entry<Path, ImportPlan> e : window) {
            ImportPlan plan = e.getValue();
            if (plan.summaryOnly()) {
                futures.add(null);
                continue;
            }
            CompletableFuture<BenchmarkReport> f = pipeline.expectReport(plan.runId());
            pipeline.sendEvents(plan.events());
            futures.add(f);
        }
        for (int i = 0; i < window.size(); i++) {
            Path file = window.get(i).getKey();
            ImportPlan plan = window.get(i).getValue();
            String name = file.getFileName().toString();
            progress.clear();
            if (plan.summaryOnly()) {
                pipeline.publishReport(plan.summaryReport());
                writeReport(name, plan.summaryReport(), out, tally);
                out.println(name + ": IMPORTED_SUMMARY (no request rows; published unchanged)");
                tally.summaries++;
            } else {
                BenchmarkReport report = pipeline.awaitReport(plan.runId(), futures.get(i), reports.timeout(),
                        "run " + plan.runId(), p -> out.println(name + ": <report>: " + p));
                if (report == null) {
                    tally.failed++;
                } else if (writeReport(name, report, out, tally)) {
                    List<MetricComparison.Mismatch> diffs = MetricComparison.compare(plan.artifact(), report);
                    if (diffs.isEmpty()) {
                        out.println(name + ": MATCHED");
                        tally.matched++;
                    } else {
                        MetricComparison.Mismatch m = diffs.get(0);
                        out.println(name + ": MISMATCH " + m.key() + " file=" + text(m.expected()) + " ours="
                                + text(m.actual()) + (diffs.size() > 1 ? " (+" + (diffs.size() - 1) + " more)" : ""));
                        tally.mismatched++;
                    }
                }
            }
            out.flush();
            progress.step(name);
        }
    }

    private boolean writeReport(String name, BenchmarkReport report, PrintWriter out, Tally tally) {
        try {
            ReportFiles.write(reports.outputDir(), name, report);
        } catch (IOException e) {
            out.println(name + ": <output>: cannot write " + reports.outputDir().resolve(name) + ": " + e.getMessage());
            tally.failed++;
            return false;
        }
        try {
            RunViews.write(report.getArtifactJson(), visual.html(), visual.csv()).forEach(out::println);
            return true;
        } catch (IOException | RuntimeException e) {
            out.println(name + ": <output>: cannot write the --html/--csv files: " + e.getMessage());
            tally.failed++;
            return false;
        }
    }

    /**
     * @param input a {@code FILE|DIR} argument; not null
     * @return why nothing can be read from it (a usage error naming the path), or null when it is a readable file
     *         or a directory that can be listed (whether its files are valid artifacts is found when they are read)
     */
    static String inputProblem(Path input) {
        if (!Files.exists(input)) {
            return input + ": no such file or directory";
        }
        if (!Files.isReadable(input)) {
            return input + ": cannot be read (permission denied)";
        }
        if (Files.isDirectory(input)) {
            try (Stream<Path> s = Files.list(input)) {
                s.findFirst();
            } catch (IOException | RuntimeException e) {
                return input + ": cannot list the directory (" + e.getMessage() + ")";
            }
        }
        return null;
    }

    private static String text(JsonNode n) {
        return n == null ? "<missing>" : n.toString();
    }

    /** Counters of one import. */
    private static final class Tally {
        int matched;
        int mismatched;
        int failed;
        int summaries;
    }

    /** Progress on stderr ({@code [k/M] file}) when stderr is a terminal and there is more than one file. */
    private static final class Progress implements AutoCloseable {
        private final PrintWriter err;
        private final int total;
        private final boolean enabled;
        private int done;

        Progress(PrintWriter err, int total) {
            this.err = err;
            this.total = total;
            this.enabled = total > 1 && System.console() != null;
        }

        void clear() {
            if (enabled) {
                err.print("\r\u001b[2K");
                err.flush();
            }
        }

        void step(String name) {
            done++;
            if (enabled) {
                err.print("\r\u001b[2K[" + done + "/" + total + "] " + name);
                err.flush();
            }
        }

        @Override
        public void close() {
            clear();
        }
    }

}
