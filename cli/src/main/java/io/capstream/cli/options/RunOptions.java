package io.capstream.cli.options;

import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.RunConfig;
import picocli.CommandLine.Option;

/**
 * The run parameters of {@code capstream run} and {@code capstream generate}: every
 * {@link WorkloadOptions} option plus the load level of one run, {@code --concurrency N} (closed-loop
 * slots) and {@code --rate RPS} (open-loop arrival rate). {@code capstream sweep} takes the same
 * names as lists of steps instead, so it uses {@link WorkloadOptions} without this class. Resolved once
 * per command into a {@link RunConfig} by {@link #toConfig(SimOptions)}; validation is
 * {@link io.capstream.loadgen.run.RunValidator}'s.
 */
public final class RunOptions extends WorkloadOptions {
    @Option(names = "--concurrency", paramLabel = "N",
            description = "Closed-loop concurrency (the reference allows up to 256; capstream up to 100000). Default: ${DEFAULT-VALUE}.")
    int concurrency = RunConfig.DEFAULT_CONCURRENCY;

    @Option(names = "--rate", paramLabel = "RPS", description = "Open-loop arrival rate, requests/s.")
    Double rate;

    @Override
    boolean saltPromptsByDefault() {
        return false;
    }

    @Override
    LoadShape loadLevel(LoadShape load) {
        return load.withConcurrency(concurrency).withRateRps(rate);
    }
}
