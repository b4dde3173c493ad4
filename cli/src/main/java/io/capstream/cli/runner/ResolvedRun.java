package io.capstream.cli.runner;

import io.capstream.cli.stack.LocalStack;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.sim.SimConfig;

/**
 * A command's run parameters, resolved once from its options ({@link RunDriver#checkRun}) before
 * anything starts. When the simulated engine is the target its base URL is not known yet: the
 * config is bound to it by {@link #boundTo(LocalStack)} once the engine listens.
 *
 * @param config the run configuration (validated, URL unbound for a simulated target); null when the
 *               options could not be resolved (a usage error was reported)
 * @param sim    the simulated engine's settings when it is the target and they are valid, else null
 */
public record ResolvedRun(RunConfig config, SimConfig sim) {

    /**
     * @param stack the started stack (runs the simulated engine when {@link #sim()} is set); not null
     * @return the config with the simulated engine's base URL bound, or the config unchanged for a given
     *         {@code --base-url}
     */
    public RunConfig boundTo(LocalStack stack) {
        return stack.sim() != null ? config.withBaseUrl(stack.sim().baseUrl()) : config;
    }
}
