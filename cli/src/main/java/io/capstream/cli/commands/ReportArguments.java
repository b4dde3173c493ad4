package io.capstream.cli.commands;

import io.capstream.cli.options.ConnectionChecks;
import io.capstream.cli.options.KafkaOptions;
import io.capstream.cli.report.ReportSources;
import io.capstream.schemas.Topics;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The {@code RUN_ID|FILE} arguments of {@code capstream report} and {@code capstream compare}: an existing
 * path is a report file; a path that does not exist but cannot be a run id either (it has a {@code /}, which no
 * run id has) is a usage error; anything else is a run id read from {@code capstream.reports}, which needs
 * {@code --bootstrap-servers} and {@code --schema-registry-url} (an embedded broker has no history).
 * Exit codes of a failed {@link #load}: 2 for a file that is not a readable report and for a run id
 * without a report; 1 when Kafka or the registry do not answer or the topic cannot be read.
 */
final class ReportArguments {
    /**
     * What {@link #load} got.
     *
     * @param reports  the reports in argument order, or empty when {@code exitCode} is not 0
     * @param exitCode 0 when every report was found, else the command's exit code
     */
    record Loaded(List<ReportSources.Found> reports, int exitCode) {
    }

    private ReportArguments() {
    }

    /**
     * @param args  the arguments; not null
     * @param kafka the Kafka options
     * @return the usage problems (a missing file, no Kafka for a run id), without command prefix
     */
    static List<String> usageProblems(List<String> args, KafkaOptions kafka) {
        List<String> problems = new ArrayList<>();
        for (String arg : args) {
            if (!ReportSources.isFile(arg) && (arg.indexOf('/') >= 0 || arg.indexOf('\\') >= 0)) {
                // a path, not a run id (RunIdRule: a run id has no '/' or '\'): not looked up on Kafka
                problems.add(arg + ": no such file (a run id has no '" + (arg.indexOf('/') >= 0 ? '/' : '\\') + "')");
            } else if (!ReportSources.isFile(arg)
                    && (kafka.bootstrapServers() == null || kafka.schemaRegistryUrl() == null)) {
                problems.add("'" + arg + "' is not a file; reading run id " + arg + " from " + Topics.REPORTS
                        + " needs --bootstrap-servers and --schema-registry-url (an embedded broker has no history)");
            }
        }
        return problems;
    }

    /**
     * Reads every argument's report, printing one line per problem to {@code err}.
     *
     * @param args  the arguments (checked with {@link #usageProblems}); not null
     * @param kafka the Kafka options
     * @param cmd   the message prefix, e.g. {@code capstream report}
     * @param err   where problems go
     * @return the reports, or the exit code
     */
    static Loaded load(List<String> args, KafkaOptions kafka, String cmd, PrintWriter err) {
        List<String> runIds = new ArrayList<>();
        for (String arg : args) {
            if (!ReportSources.isFile(arg)) {
                runIds.add(arg);
            }
        }
        Map<String, ReportSources.Found> stored = Map.of();
        try {
            if (!runIds.isEmpty()) {
                String down = ConnectionChecks.kafkaThenRegistry(kafka.clientProperties(), kafka.schemaRegistryUrl(),
                        kafka.registryClientConfig());
                if (down != null) {
                    err.println(cmd + ": " + down);
                    return new Loaded(List.of(), 1);
                }
                stored = ReportSources.fromTopic(kafka, new LinkedHashSet<>(runIds));
            }
        } catch (ReportSources.NotFound e) {
            err.println(cmd + ": " + e.getMessage());
            return new Loaded(List.of(), 2);
        } catch (RuntimeException e) {
            err.println(cmd + ": cannot read " + Topics.REPORTS + ": " + e.getMessage());
            return new Loaded(List.of(), 1);
        }
        List<ReportSources.Found> found = new ArrayList<>();
        int code = 0;
        for (String arg : args) {
            if (ReportSources.isFile(arg)) {
                try {
                    found.add(ReportSources.fromFile(Path.of(arg)));
                } catch (ReportSources.NotFound e) {
                    err.println(cmd + ": " + e.getMessage());
                    code = 2;
                }
            } else if (stored.containsKey(arg)) {
                found.add(stored.get(arg));
            } else {
                err.println(cmd + ": no report for run id " + arg + " on " + Topics.REPORTS
                        + " (unknown run id, deleted, or past the topic's retention)" + mockRegistryHint(kafka));
                code = 2;
            }
        }
        return code == 0 ? new Loaded(found, 0) : new Loaded(List.of(), code);
    }

    /**
     * @return for a {@code mock://} registry, why it finds no report another process wrote; else empty
     */
    private static String mockRegistryHint(KafkaOptions kafka) {
        String url = kafka.schemaRegistryUrl();
        return url != null && url.startsWith("mock://")
                ? "; --schema-registry-url " + url + " is an in-memory registry of this process only, so reports other"
                        + " processes wrote cannot be decoded: give the registry they were written with"
                : "";
    }
}
