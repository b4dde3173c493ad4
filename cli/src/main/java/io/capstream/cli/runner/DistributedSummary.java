package io.capstream.cli.runner;

import io.capstream.cli.report.RunViews;
import io.capstream.cli.report.SummaryTable;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.BenchmarkReport;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What the coordinator of a distributed run does with its report: writes it, prints the summary (with the
 * workers' client check) and the {@code --html}/{@code --csv} views, and says why the run did not succeed
 * (incomplete, interrupted with requests not sent, failed requests, SLOs missed) in its exit code.
 */
final class DistributedSummary {
    private final RunRequest req;
    private final PrintStream out;
    private final PrintStream err;
    private final String cmd;

    /**
     * @param req what the command runs (its views, its name)
     * @param out summary and result lines
     * @param err notices and errors
     */
    DistributedSummary(RunRequest req, PrintStream out, PrintStream err) {
        this.req = req;
        this.out = out;
        this.err = err;
        this.cmd = "capstream " + req.commandName();
    }

    /**
     * Writes the report, prints the summary and the views.
     *
     * @param report      the run's report; not null
     * @param file        where it goes
     * @param interrupted whether the coordinator stopped the workers
     * @return the exit code (0, 1 or the SLO gate's)
     * @throws java.io.IOException when the report cannot be written
     */
    int written(BenchmarkReport report, Path file, boolean interrupted) throws java.io.IOException {
        RunViews.writeFile(file, report.getArtifactJson()); // missing parents created, as for --html
        out.print(summary(report));
        out.println("report written to " + file);
        int code = 0;
        try {
            RunViews.write(report.getArtifactJson(), req.visual().html(), req.visual().csv()).forEach(out::println);
        } catch (java.io.IOException | RuntimeException e) {
            err.println(cmd + ": cannot write the --html/--csv files: " + RunDriver.describe(e));
            code = 1;
        }
        if (!report.getProvenance().getComplete()) {
            long unsent = interrupted ? unsentOfInterrupted(report) : -1;
            err.println(cmd + ": " + (unsent >= 0 ? unsent + " planned request(s) were not sent (the run was interrupted);"
                    + " every request sent has its event" : RunDriver.incompleteReason(report)));
            code = 1;
        }
        int failed = ArtifactJson.parse(report.getArtifactJson()).path("failed").asInt(0);
        if (failed > 0) {
            err.println(cmd + ": " + failed + " requests failed");
        }
        if (report.getStopped() != null) {
            // issue 30: a stop rule ended the run early; its complete report is written: the stop's own exit code
            err.println(cmd + ": the run was stopped early by stop rule " + report.getStopped().getRule()
                    + (code == 0 ? "; exit code " + io.capstream.loadgen.run.RunOutcome.EXIT_STOPPED : ""));
            return code == 0 ? io.capstream.loadgen.run.RunOutcome.EXIT_STOPPED : code;
        }
        if (failed > 0) {
            code = 1;
        }
        return SloGate.apply(report.getSlo(), code, err, cmd);
    }

    /**
     * @param report the report of an interrupted run (by Ctrl-C or SIGTERM, or by a distributed run's coordinator); not null
     * @return how many planned requests were never sent, when that is all its missing indices are (every worker's
     *         RunFinished arrived and the events of all the requests they say they sent are in the report), else -1
     */
    static long unsentOfInterrupted(BenchmarkReport report) {
        if (!report.getProvenance().getRunFinishedSeen() || report.getWorkers() == null) {
            return -1;
        }
        long sent = 0;
        for (io.capstream.schemas.avro.WorkerSummary w : report.getWorkers().values()) {
            if (w.getRequestsSent() == null) {
                return -1;
            }
            sent += w.getRequestsSent();
        }
        int got = report.getCompleted() + report.getFailed()
                + (report.getCancelled() == null ? 0 : report.getCancelled().getRequests());
        return sent == got ? report.getProvenance().getMissingRequestIndices().size() : -1;
    }

    /**
     * The summary of a run's report, for a distributed and a one-process run alike: the client-check lines (and the
     * distortion warning) come from the report's {@code capstream.client}, which the aggregator computed from the
     * workers' RunFinished events and request events (the coordinator of a distributed run ran no request).
     *
     * @param report the run's report; not null
     * @return the summary table, with the client check when the report carries one
     */
    static String summary(BenchmarkReport report) {
        io.capstream.schemas.avro.ClientCheck client;
        try {
            client = io.capstream.cli.report.ArtifactRecords.clientCheck(ArtifactJson.parse(report.getArtifactJson()));
        } catch (java.io.IOException | RuntimeException e) {
            client = null; // an artifact that cannot be read back: the table without the self-check
        }
        return SummaryTable.render(report, client);
    }
}
