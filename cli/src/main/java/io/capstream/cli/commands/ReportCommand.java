package io.capstream.cli.commands;

import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.options.VisualOutputOptions;
import io.capstream.cli.report.ArtifactRecords;
import io.capstream.cli.report.ReportSources;
import io.capstream.cli.report.RunViews;
import io.capstream.cli.report.SummaryTable;
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
 * {@code capstream report RUN_ID|FILE [--html FILE] [--csv FILE] [--json FILE]}: a report already on disk
 * or on {@code capstream.reports} ({@link ReportArguments}), printed as the console summary
 * ({@link SummaryTable}) and written as the requested files: the artifact ({@code --json}), the run's
 * HTML page and its per-request CSV ({@link RunViews}).
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Prints the summary of a report that is already there, and writes it as an HTML page, a CSV of"
                + " its requests or its JSON artifact.",
            "RUN_ID|FILE is a report file (anvil-serving.benchmark/v1) when such a path exists, else a run id whose"
                + " latest report is read from capstream.reports (needs --bootstrap-servers and --schema-registry-url)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the report was printed and every file written",
            "1:Kafka or the schema registry did not answer, or a file could not be written",
            "2:usage error, unknown run id, or a file that is not a readable report"})
public final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN_ID|FILE", description = "A report file, or a run id on capstream.reports.")
    String source;

    @Mixin
    VisualOutputOptions visual = new VisualOutputOptions();

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the report's artifact JSON (as a run writes it). " + VisualOutputOptions.FILE_RULE)
    String json; // as given: checked by VisualOutputOptions.fileProblem before it becomes a Path

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> problems = new ArrayList<>(ReportArguments.usageProblems(List.of(source), kafka));
        Path read = Files.exists(Path.of(source)) ? Path.of(source) : null;
        VisualOutputOptions.Taken input = new VisualOutputOptions.Taken(read, "the report being read");
        String jsonProblem = VisualOutputOptions.fileProblem("--json", json, "report.json");
        Path jsonFile = json == null || jsonProblem != null ? null : Path.of(json);
        if (jsonProblem == null) {
            jsonProblem = VisualOutputOptions.collision("--json", jsonFile, input);
        }
        if (jsonProblem != null) {
            problems.add(jsonProblem);
        }
        problems.addAll(visual.problems(input, new VisualOutputOptions.Taken(jsonFile, "also the --json output")));
        if (!problems.isEmpty()) {
            problems.forEach(p -> err.println("capstream report: " + p));
            return 2;
        }
        ReportArguments.Loaded loaded = ReportArguments.load(List.of(source), kafka, "capstream report", err);
        if (loaded.exitCode() != 0) {
            return loaded.exitCode();
        }
        ReportSources.Found r = loaded.reports().get(0);
        out.print(SummaryTable.render(r.report(), ArtifactRecords.clientCheck(r.artifact())));
        try {
            if (jsonFile != null) {
                RunViews.writeFile(jsonFile, r.report().getArtifactJson());
                out.println("json: " + jsonFile);
            }
            RunViews.write(r.artifact(), visual.html(), visual.csv()).forEach(out::println);
        } catch (IOException | RuntimeException e) {
            out.flush();
            err.println("capstream report: cannot write the files: " + e.getMessage());
            return 1;
        }
        out.flush();
        return 0;
    }
}
