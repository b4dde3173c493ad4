package io.capstream.cli.rerun;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunStartedMapping;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.schemas.avro.RunStarted;

/**
 * The one mapping from a past run's {@link RunStarted} to the workload of its rerun ({@code capstream rerun}):
 * everything that decides what is sent and when comes from the original, so that the same prompts go out in the
 * same order (the prompt of request {@code i} is a function of the shared prefix, {@code i} and its planned
 * context, spec §3.3; the plan is a function of the seed, the window and the request shape, spec §3.1) and, for
 * an open loop, at the same arrival offsets (a function of the arrival process, the rate and the seed). The target
 * (base URL, model, engine label, key, headers), the warm-up and the server-metrics scraping are the command's.
 *
 * <p>Taken from the original: requests, concurrency (after {@code --burst}, which is not applied again), the
 * arrival process, rate (or rate schedule), burstiness, in-flight cap, duration, ramp-up and steady-state window;
 * shared prefix, fixed context, seed, max tokens,
 * context window ({@code max_context_tokens}; when the original's was unknown the new endpoint is probed and the
 * plan may differ, see {@link #planMatches}), margin, socket timeout, keep-alive, thinking mode, reasoning
 * effort, endpoint and extra body; the {@code --input-tokens}/{@code --output-tokens} distributions; the SLOs. A
 * {@code --dataset} and {@code --tokenizer} are the command's, checked against the original's
 * ({@link #missingInputs}: the dataset by its SHA-256). One process sends it all (a distributed original is rerun by one
 * generator).
 */
public final class RerunWorkload {
    private RerunWorkload() {
    }

    /**
     * @param target   the command's resolved config (its target, warm-up, server metrics and identity are kept); not
     *                 null
     * @param original the original run's RunStarted; not null
     * @param originalRunId the original's run id (recorded as the rerun's {@code rerun_of}); not null
     * @param runId    the rerun's run id; not null
     * @return the config that re-sends the original's workload to {@code target}'s endpoint
     * @throws IllegalArgumentException when the original's recorded values cannot be read back (an unknown
     *                                  thinking mode, arrival process or extra body)
     */
    public static RunConfig apply(RunConfig target, RunStarted original, String originalRunId, String runId) {
        RunConfig recorded = RunStartedMapping.toConfig(original);
        TargetConfig sent = recorded.target();
        return recorded
                .withTarget(target.target().withConnection(sent.timeoutS(), sent.keepAlive(), sent.endpoint()))
                .withLoad(recorded.load().withBurst(0))
                .withRequest(recorded.request().withFiles(target.request().dataset(), target.request().tokenizer()))
                // the conversations (turns, think time, tool answers) are the original's; the tools file the command's
                .withConversation(recorded.conversation().withTools(target.conversation().tools()))
                .withIdentity(target.identity().withSeed(recorded.identity().seed()).withExpectedWorkers(1)
                        .withRunId(runId).withRunIdSuffix(null))
                .withWarmup(target.warmup())
                .withServerMetrics(target.serverMetrics())
                .withReport(recorded.report().withSweep(null).withRerunOf(originalRunId));
    }

    /**
     * Whether the rerun's plan is the original's (it is whenever the original's context window was known).
     *
     * @param original the original run's RunStarted; not null
     * @param rerun    the rerun's RunStarted; not null
     * @return true when both planned the same context for every request index
     */
    public static boolean planMatches(RunStarted original, RunStarted rerun) {
        return original.getPlannedContextTokens().equals(rerun.getPlannedContextTokens());
    }

    /**
     * The original's {@code --tools} file, which the events hold by name and SHA-256 (issue 29).
     *
     * @param original the original run's RunStarted; not null
     * @param tools    the rerun's {@code --tools}, or null
     * @param toolsSha the SHA-256 of that file's bytes (lower-case hex), or null when none was given
     * @return one usage error per problem; empty when the command line gives the original's tools (or neither has)
     */
    public static java.util.List<String> missingTools(RunStarted original, java.nio.file.Path tools, String toolsSha) {
        java.util.List<String> problems = new java.util.ArrayList<>();
        if (original.getToolsName() == null) {
            if (tools != null) {
                problems.add("--tools: the original run sent no tools");
            }
        } else if (tools == null) {
            problems.add("needs --tools: the original run sent the tools of " + original.getToolsName() + " (SHA-256 "
                    + original.getToolsSha256() + "); give that file");
        } else if (!String.valueOf(original.getToolsSha256()).equals(toolsSha)) {
            problems.add("--tools " + tools + " is not the original's " + original.getToolsName() + ": SHA-256 "
                    + toolsSha + ", the original's " + original.getToolsSha256());
        }
        return problems;
    }

    /**
     * What the rerun needs from the command line besides the events: the original's {@code --dataset} file (the
     * events hold its name and SHA-256, not its entries) and its {@code --tokenizer}, when it used them.
     *
     * @param original   the original run's RunStarted; not null
     * @param dataset    the rerun's {@code --dataset} (or {@code --trace} for a trace run), or null
     * @param datasetSha the SHA-256 of that file's bytes (lower-case hex), or null when none was given
     * @param tokenizer  the rerun's {@code --tokenizer}, or null
     * @return one usage error per problem; empty when the command line completes the workload
     */
    public static java.util.List<String> missingInputs(RunStarted original, java.nio.file.Path dataset, String datasetSha,
                                                       java.nio.file.Path tokenizer) {
        java.util.List<String> problems = new java.util.ArrayList<>();
        boolean trace = ArrivalMode.TRACE.wireName().equals(original.getArrival());
        String option = trace ? "--trace" : "--dataset";
        if (original.getDatasetName() == null) {
            if (dataset != null) {
                problems.add("--dataset/--trace: the original run sent no dataset or trace (its prompts are synthetic)");
            }
        } else if (dataset == null) {
            problems.add("needs " + option + ": the original run's " + (trace ? "trace was " : "prompts came from ")
                    + original.getDatasetName() + " (SHA-256 " + original.getDatasetSha256() + "); give that file");
        } else if (!String.valueOf(original.getDatasetSha256()).equals(datasetSha)) {
            problems.add(option + " " + dataset + " is not the original's " + original.getDatasetName() + ": SHA-256 "
                    + datasetSha + ", the original's " + original.getDatasetSha256());
        }
        if (original.getTokenizer() != null && tokenizer == null) {
            problems.add("needs --tokenizer: the original run counted tokens with " + original.getTokenizer());
        } else if (original.getTokenizer() != null && tokenizer.getFileName() != null
                && !original.getTokenizer().toString().equals(tokenizer.getFileName().toString())) {
            // only the name is recorded: a file of the same name with other content is not caught
            problems.add("--tokenizer " + tokenizer + " is not the original's " + original.getTokenizer());
        } else if (original.getTokenizer() == null && tokenizer != null) {
            problems.add("--tokenizer: the original run used none (the 3 characters per token estimate)");
        }
        return problems;
    }
}
