package io.capstream.loadgen.run;

import io.capstream.loadgen.arrival.RequestLauncher;
import io.capstream.loadgen.client.StreamingClient;

/**
 * The one place a {@link RequestPipeline}'s sender and its arrival driver's launcher are made, for the client
 * warm-up's pipeline ({@link PipelineWarmup}) and the run's alike, so that both use the same classes and the code the
 * warm-up compiled is not thrown away at T0: while only one implementation of an interface is loaded the JIT calls it
 * directly, and a second one appearing (another lambda) discards that code, which then runs interpreted until it is
 * compiled again (seen with {@code -XX:+PrintCompilation}: {@code ClosedLoop.takeNext} and
 * {@code RequestPipeline.sendBuilt} "made not entrant" as a run started).
 */
final class PipelineWiring {
    private PipelineWiring() {
    }

    /**
     * @param client the streaming client; not null
     * @return a sender of a pipeline's requests through {@code client}
     */
    static RequestPipeline.Sender sender(StreamingClient client) {
        return client::execute;
    }

    /**
     * @param pipeline the pipeline whose single requests the driver launches; not null
     * @param share    the plan's share this execution sends (its local index i is the plan's request
     *                 {@code share.globalIndex(i)}), or null for the whole plan
     * @param wrap     the driver's index i stands for {@code i mod wrap} (the warm-up reuses the run's bodies);
     *                 {@link Integer#MAX_VALUE} in a run; &gt; 0
     * @return the arrival driver's launcher
     */
    static RequestLauncher launcher(RequestPipeline pipeline, PlanShare share, int wrap) {
        return (local, scheduledNs, ctx, onEnd) -> {
            int i = local % wrap;
            pipeline.launch(share == null ? i : share.globalIndex(i), scheduledNs, ctx, onEnd);
        };
    }
}
