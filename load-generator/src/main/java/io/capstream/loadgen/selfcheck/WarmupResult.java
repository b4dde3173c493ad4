package io.capstream.loadgen.selfcheck;

/**
 * What ran before a run's T0 to warm the client, for the self-check ({@code capstream.client}).
 *
 * @param loopbackRequests    requests of the in-process loopback warm-up; 0 when it was off
 * @param loopbackMs          wall time of the loopback warm-up, ms
 * @param firstUsPerRequest   wall time per request of its first batch, µs; null when it did not run
 * @param lastUsPerRequest    wall time per request of its last batch, µs; null when it did not run
 * @param targetRequests      discarded {@code --warmup-requests} sent to the target
 * @param targetFailed        how many of those failed
 */
public record WarmupResult(int loopbackRequests, double loopbackMs, Double firstUsPerRequest,
                           Double lastUsPerRequest, int targetRequests, int targetFailed) {
    /** Nothing ran before T0. */
    public static final WarmupResult NONE = new WarmupResult(0, 0, null, null, 0, 0);

    /**
     * @param requests discarded target requests
     * @param failed   how many of them failed
     * @return this result with the target warm-up's counts
     */
    public WarmupResult withTarget(int requests, int failed) {
        return new WarmupResult(loopbackRequests, loopbackMs, firstUsPerRequest, lastUsPerRequest, requests, failed);
    }
}
