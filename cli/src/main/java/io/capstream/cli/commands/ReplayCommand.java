package io.capstream.cli.commands;

import io.capstream.cli.options.DurationConverter;
import io.capstream.schemas.time.CapClock;
import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.aggregator.importer.MetricComparison;
import io.capstream.aggregator.report.Origins;
import io.capstream.cli.options.AggregatorGroupOption;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.ReportOptionTexts;
import io.capstream.cli.options.ReportWaitOptions;
import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.cli.report.Replays;
import io.capstream.cli.report.ReportFiles;
import io.capstream.cli.report.ReportPipeline;
import io.capstream.cli.report.ReportPipelineConfig;
import io.capstream.cli.report.RunViews;
import io.capstream.cli.report.StoredReports;
import io.capstream.cli.report.TopicHistory;
import io.capstream.cli.sweep.SweepOutput;
import io.capstream.cli.sweep.SweepTable;
import io.capstream.cli.sweep.SweepViews;
import io.capstream.cli.sweep.SweepWaiter;
import io.capstream.schemas.Topics;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.report.SweepJson;
import io.capstream.schemas.serde.SpecificAvroSerde;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.serialization.Deserializer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code capstream replay --run-id ID... | --all}: re-reads past runs' events from
 * {@code capstream.events}, republishes them under a new run id
 * ({@code <id>-replay-<UTC timestamp>}, RunStarted origin {@code replay:<id>}), waits for the fresh
 * report (provenance REPLAY, replay_of = the original id), writes it to {@code --output-dir} as
 * {@code <replay run id>.json} and compares its metrics with the original report on
 * {@code capstream.reports} when that is still there.
 *
 * <p>{@code --sweep-id S} replays every step of sweep S as a new sweep {@code S-replay-<UTC timestamp>}
 * and writes that sweep's curve ({@code sweep.json}, {@code sweep.csv}) as well; the original curve is
 * left alone. Single runs replayed with {@code --run-id} lose their sweep step ({@link Replays#rekey}).
 *
 * <p>Needs {@code --bootstrap-servers}: an embedded broker starts empty and has no past events.
 * Exit codes: 0 every run replayed (and matched its original report when found); 1 a run was not
 * found, got no report or differs; 2 usage error.
 */
@Command(name = "replay", mixinStandardHelpOptions = true, resourceBundle = ReportOptionTexts.BASE_NAME,
        description = {
            "Recompute the report of past runs (or of a sweep's steps, --sweep-id) from their events on capstream.events.",
            "The events are republished under a new run id (<id>-replay-<UTC time>) and the fresh report, marked"
                    + " as a replay of the original (provenance REPLAY, replay_of), is printed, written to --output-dir"
                    + " and compared with the original report. Needs --bootstrap-servers (an embedded broker has no"
                    + " history) and the --schema-registry-url the events were written with.",
            "--html FILE and --csv FILE (one --run-id, or --sweep-id) also write the replay's page and its"
                    + " per-request CSV (a sweep: its page, each step's page beside its report, and one CSV of"
                    + " every step's requests)."
        })
public final class ReplayCommand implements Callable<Integer> {
    /** Now, for the replays' run ids (tests set their own). */
    CapClock clock = CapClock.system();
    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafkaOptions;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Selection selection;

    /** Which runs to replay. */
    static final class Selection {
        @Option(names = "--run-id", paramLabel = "ID", required = true,
                description = "Run id to replay (repeatable).")
        List<String> runIds;

        @Option(names = "--all", required = true,
                description = "Replay every run that has a RunStarted on capstream.events (replays excluded).")
        boolean all;

        @Option(names = "--sweep-id", paramLabel = "ID", required = true,
                description = "Replay every step of sweep ID as a new sweep ID-replay-<UTC time> (steps <new id>-sN),"
                        + " wait for its curve on capstream.sweeps and write its sweep.json and sweep.csv.")
        String sweepId;
    }

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
        List<String> problems = new ArrayList<>(); // every usage problem at once, before any work
        if (kafkaOptions.bootstrapServers() == null) {
            problems.add("needs --bootstrap-servers: an embedded broker starts empty, so it has no"
                    + " past events to replay. Point it at the Kafka cluster that holds capstream.events"
                    + " (e.g. the one 'capstream up' or docker compose started).");
        }
        if (kafkaOptions.schemaRegistryUrl() == null) {
            problems.add("needs --schema-registry-url: the registry the events were written with");
        }
        String problem = reports.usageProblem(true);
        if (problem != null) {
            problems.add(problem);
        }
        problems.addAll(visual.problems());
        if (visual.any() && (selection.all || selection.runIds != null && selection.runIds.size() != 1)) {
            problems.add("--html and --csv take one run (a single --run-id) or one sweep (--sweep-id)");
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("capstream replay: " + p));
            return 2;
        }
        ReportPipelineConfig config = ReportPipelineConfig.forCommand(kafkaOptions, !reports.externalAggregator(),
                aggregatorGroup.group());
        try (ReportPipeline pipeline = ReportPipeline.start(config, "replay", err)) {
            return replay(pipeline, out, err);
        } catch (RuntimeException e) {
            err.println("capstream replay: " + e.getMessage());
            return 1;
        }
    }

    private int replay(ReportPipeline pipeline, PrintWriter out, PrintWriter err) {
        Map<String, List<RunEvent>> runs = readEvents(pipeline, err);
        if (selection.sweepId != null) {
            return replaySweep(pipeline, runs, out);
        }
        List<String> wanted = new ArrayList<>();
        int failures = 0;
        if (selection.all) {
            runs.forEach((id, events) -> {
                RunStarted s = started(events);
                if (s != null && Origins.replayedRunId(s.getOrigin()) == null) {
                    wanted.add(id);
                }
            });
            if (wanted.isEmpty()) {
                out.println("no runs on " + Topics.EVENTS + " to replay");
            }
        } else {
            for (String id : selection.runIds) {
                if (!runs.containsKey(id)) {
                    out.println(id + ": not found on " + Topics.EVENTS + " (never sent, or past the topic's retention)");
                    failures++;
                } else if (started(runs.get(id)) == null) {
                    out.println(id + ": its RunStarted is no longer on " + Topics.EVENTS
                            + " (past the topic's retention); cannot replay");
                    failures++;
                } else {
                    wanted.add(id);
                }
            }
        }
        Map<String, BenchmarkReport> originals = readReports(pipeline, wanted);
        int replayed = 0;
        for (String id : wanted) {
            if (replayOne(pipeline, id, runs.get(id), originals.get(id), out)) {
                replayed++;
            } else {
                failures++;
            }
            out.flush();
        }
        int asked = selection.all ? wanted.size() : selection.runIds.size();
        out.printf("%d of %d runs replayed%n", replayed, asked);
        return failures == 0 ? 0 : 1;
    }

    private boolean replayOne(ReportPipeline pipeline, String id, List<RunEvent> events, BenchmarkReport original,
                              PrintWriter out) {
        String replayId = Replays.replayRunId(id, clock.instant());
        CompletableFuture<BenchmarkReport> f = pipeline.expectReport(replayId);
        pipeline.sendEvents(Replays.rekey(events, replayId));
        BenchmarkReport report = pipeline.awaitReport(replayId, f, reports.timeout(), "replay " + replayId,
                p -> out.println(id + ": " + p));
        if (report == null) {
            return false;
        }
        Path file;
        try {
            file = ReportFiles.write(reports.outputDir(), replayId + ".json", report);
        } catch (IOException e) {
            out.println(id + ": cannot write the replay report: " + e.getMessage());
            return false;
        }
        try {
            RunViews.write(report.getArtifactJson(), visual.html(), visual.csv()).forEach(out::println);
        } catch (IOException | RuntimeException e) {
            out.println(id + ": cannot write the --html/--csv files: " + e.getMessage());
            return false;
        }
        var p = report.getProvenance();
        String head = id + ": REPLAYED as " + replayId + " (" + p.getKind() + " of " + p.getReplayOf() + ", "
                + report.getCompleted() + " completed, " + report.getFailed() + " failed"
                + (p.getComplete() ? "" : ", INCOMPLETE missing " + p.getMissingRequestIndices()) + ") -> " + file;
        if (original == null) {
            out.println(head + "; original report not on " + Topics.REPORTS + ", not compared");
            return true;
        }
        JsonNode expected;
        try {
            expected = ArtifactJson.parse(original.getArtifactJson());
        } catch (IOException e) {
            out.println(head + "; original report unreadable: " + e.getMessage());
            return false;
        }
        List<MetricComparison.Mismatch> diffs = MetricComparison.compare(expected, report);
        if (diffs.isEmpty()) {
            out.println(head + "; metrics MATCHED the original report");
            return true;
        }
        MetricComparison.Mismatch m = diffs.get(0);
        out.println(head + "; MISMATCH " + m.key() + " original=" + m.expected() + " replay=" + m.actual()
                + (diffs.size() > 1 ? " (+" + (diffs.size() - 1) + " more)" : ""));
        return false;
    }

    /**
     * {@code --sweep-id S}: replays the steps of sweep S (in step order) as the steps of a new sweep
     * {@code S-replay-<stamp>}, writes each step's report, then waits for the new sweep's curve and
     * writes {@code sweep.json} and {@code sweep.csv} to {@code --output-dir}.
     *
     * @return 0 when every step's report and the curve arrived, else 1
     */
    private int replaySweep(ReportPipeline pipeline, Map<String, List<RunEvent>> runs, PrintWriter out) {
        String original = selection.sweepId;
        TreeMap<Integer, String> steps = new TreeMap<>();
        runs.forEach((id, events) -> {
            RunStarted s = started(events);
            if (s != null && s.getSweep() != null && original.equals(s.getSweep().getSweepId())) {
                steps.put(s.getSweep().getStep(), id);
            }
        });
        if (steps.isEmpty()) {
            out.println(original + ": no step of this sweep on " + Topics.EVENTS
                    + " (never sent, or past the topic's retention)");
            return 1;
        }
        String replaySweep = Replays.replayRunId(original, clock.instant());
        int failures = 0;
        Set<String> replayed = new LinkedHashSet<>();
        List<SweepViews.Step> views = new ArrayList<>();
        try (SweepWaiter curves = SweepWaiter.forSweeps(
                pipeline.kafka(), pipeline.schemaRegistryUrl(), pipeline.registryClient())) {
            for (var step : steps.entrySet()) {
                String id = step.getValue();
                String replayId = replaySweep + "-s" + step.getKey();
                CompletableFuture<BenchmarkReport> f = pipeline.expectReport(replayId);
                pipeline.sendEvents(Replays.rekeyStep(runs.get(id), replayId, replaySweep));
                BenchmarkReport report = pipeline.awaitReport(replayId, f, reports.timeout(), "replay " + replayId,
                        p -> out.println(id + ": " + p));
                if (report == null) {
                    failures++;
                    continue;
                }
                try {
                    Path file = ReportFiles.write(reports.outputDir(), replayId + ".json", report);
                    out.println(id + ": REPLAYED as " + replayId + " -> " + file);
                    replayed.add(replayId);
                    if (visual.any()) {
                        views.add(new SweepViews.Step(replayId, step.getKey(), file,
                                ArtifactJson.parse(report.getArtifactJson())));
                    }
                } catch (IOException e) {
                    out.println(id + ": cannot write the replay report: " + e.getMessage());
                    failures++;
                }
                out.flush();
            }
            if (replayed.isEmpty()) {
                return 1;
            }
            var curve = curves.await(replaySweep, replayed, reports.timeout());
            if (curve.isEmpty()) {
                out.println(original + ": no curve for " + replaySweep + " arrived on " + Topics.SWEEPS + " within "
                        + DurationConverter.secondsText(reports.timeout()) + " s");
                return 1;
            }
            SweepOutput output = new SweepOutput(reports.outputDir());
            output.writeCurve(curve.get());
            out.print(SweepTable.render(curve.get()));
            out.printf("sweep %s replayed as %s: %d of %d steps; sweep.json and sweep.csv in %s%n", original,
                    replaySweep, replayed.size(), steps.size(), reports.outputDir());
            SweepViews.write(SweepJson.toJson(curve.get()), views, visual.html(), visual.csv()).forEach(out::println);
        } catch (IOException e) {
            out.println(original + ": cannot write the sweep files: " + e.getMessage());
            return 1;
        }
        return failures == 0 ? 0 : 1;
    }

    private static RunStarted started(List<RunEvent> events) {
        for (RunEvent e : events) {
            if (e.getPayload() instanceof RunStarted s) {
                return s;
            }
        }
        return null;
    }

    private Map<String, List<RunEvent>> readEvents(ReportPipeline pipeline, PrintWriter err) {
        Deserializer<RunEvent> decoder = SpecificAvroSerde.forValue(RunEvent.class, pipeline.schemaRegistryUrl(),
                        pipeline.registryClient())
                .deserializer();
        Map<String, List<RunEvent>> runs = new LinkedHashMap<>();
        int[] undecodable = {0};
        TopicHistory.read(pipeline.kafka().consumer(Map.of()), Topics.EVENTS, (key, bytes) -> {
            if (bytes == null) {
                return;
            }
            RunEvent e;
            try {
                e = decoder.deserialize(Topics.EVENTS, bytes);
            } catch (RuntimeException ex) {
                undecodable[0]++;
                return;
            }
            if (selection.runIds == null || selection.runIds.contains(e.getRunId())) {
                runs.computeIfAbsent(e.getRunId(), k -> new ArrayList<>()).add(e);
            }
        });
        if (undecodable[0] > 0) {
            err.println("capstream replay: skipped " + undecodable[0] + " undecodable record(s) on " + Topics.EVENTS);
        }
        return runs;
    }

    private static Map<String, BenchmarkReport> readReports(ReportPipeline pipeline, List<String> ids) {
        // large reports keep their artifact on capstream.reports.chunks: StoredReports puts it back together
        return StoredReports.latest(pipeline.kafka().consumer(Map.of()), Topics.REPORTS, Topics.REPORT_CHUNKS, ids,
                SpecificAvroSerde.forValue(BenchmarkReport.class, pipeline.schemaRegistryUrl(),
                        pipeline.registryClient()).deserializer(),
                SpecificAvroSerde.forValue(io.capstream.schemas.avro.ReportChunk.class, pipeline.schemaRegistryUrl(),
                        pipeline.registryClient()).deserializer());
    }
}
