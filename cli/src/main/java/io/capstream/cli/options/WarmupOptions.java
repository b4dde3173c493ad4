package io.capstream.cli.options;

import io.capstream.loadgen.run.WarmupConfig;
import picocli.CommandLine.Option;

/**
 * The target warm-up options of {@code capstream run}, {@code generate} and {@code sweep}, mixed into
 * {@link WorkloadOptions}: the requests sent to the target before the run ({@code --warmup-requests}) and whether
 * they prime its prefix cache ({@code --warmup-prime-cache}). The client's own warm-up ({@code --client-warmup})
 * stays in {@link WorkloadOptions}, where the help lists it. Resolved with it into a {@link WarmupConfig} by
 * {@link #toConfig(double)}; the rules of the values are {@link io.capstream.loadgen.run.RunValidator}'s.
 */
public class WarmupOptions {
    @Option(names = "--warmup-requests", paramLabel = "N",
            description = "Requests sent to the target before the run starts and discarded: never in the events or the"
                    + " report (as vLLM's --num-warmups). Their prompts carry request indices after the plan's, so no"
                    + " measured prompt is sent twice, and a prompt salt of their own, so they do not fill the server's"
                    + " prefix cache with the measured prompts' shared prefix (see --warmup-prime-cache);"
                    + " min(N, --concurrency) at a time. 0 to 100000. Default: 0.")
    int warmupRequests;

    @Option(names = "--warmup-prime-cache",
            description = "The --warmup-requests' prompts share the measured prompts' prefix (shared prefix and prompt"
                    + " salt), so the run starts with the server's prefix cache holding it. Default: off (the warm-up"
                    + " warms the server, not its prefix cache).")
    boolean warmupPrimeCache;

    /**
     * @param clientWarmupS the client's own warm-up bound ({@code --client-warmup}), s
     * @return the warm-up settings
     */
    public WarmupConfig toConfig(double clientWarmupS) {
        return new WarmupConfig(clientWarmupS, warmupRequests, warmupPrimeCache);
    }
}
