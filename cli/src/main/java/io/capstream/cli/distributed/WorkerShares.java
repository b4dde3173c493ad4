package io.capstream.cli.distributed;

import io.capstream.loadgen.run.PlanShare;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunStartedMapping;
import io.capstream.loadgen.run.WarmupConfig;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WorkerShare;
import io.capstream.schemas.text.HttpUrls;

/**
 * The mapping between a run's {@link RunConfig} (with its {@link RunStarted}) and the
 * {@link WorkerShare} records of its plan. What a worker needs besides RunStarted: the run id, the
 * base URL without credentials (RunStarted's is redacted), the API key's environment variable name,
 * the warm-up settings, the share, its slots and the shared start instant. Stateless.
 */
public final class WorkerShares {
    private WorkerShares() {
    }

    /**
     * @param runId          the run id; not null
     * @param coordinatorId  worker id of the coordinator's RunStarted; not null
     * @param started        the RunStarted payload the coordinator emitted; not null
     * @param config         the coordinator's config (base URL, API key variable, warm-up); not null
     * @param share          the share; not null
     * @param startBrokerMs  the shared T0 on the broker's clock, epoch ms
     * @return share {@code share.share()} of the plan, its slots {@link PlanShare#concurrency} of RunStarted's
     *         concurrency (the in-flight cap of an open loop)
     */
    public static WorkerShare build(String runId, String coordinatorId, RunStarted started, RunConfig config,
                                    PlanShare share, long startBrokerMs) {
        return WorkerShare.newBuilder()
                .setRunId(runId)
                .setCoordinatorId(coordinatorId)
                .setShare(share.share())
                .setShares(share.shares())
                .setConcurrency(share.concurrency(started.getConcurrency()))
                .setStartAtBrokerEpochMs(startBrokerMs)
                .setBaseUrl(HttpUrls.withoutUserInfo(config.target().baseUrl()))
                .setApiKeyEnv(config.target().apiKeyEnv())
                .setClientWarmupS(config.warmup().clientWarmupS())
                .setWarmupRequests(config.warmup().targetRequests())
                .setWarmupPrimeCache(config.warmup().primeCache())
                // as for the base URL, no password goes into a plan (the scraper sends no credentials anyway)
                .setServerMetrics(config.serverMetrics().url() == null ? config.serverMetrics().label()
                        : HttpUrls.withoutUserInfo(config.serverMetrics().url()))
                .setRunStarted(started)
                .build();
    }

    /**
     * Rebuilds the run's configuration on a worker: every run setting RunStarted records
     * ({@link RunStartedMapping#toConfig}), with the share's target (base URL without credentials, API key
     * variable), warm-up and server-metrics scraping, the run's id and this worker's own id.
     *
     * @param ws       the share; not null
     * @param workerId this worker's id; not null
     * @return the configuration (not validated: the API key variable must exist on this worker)
     * @throws IllegalArgumentException when RunStarted names an unknown arrival process, thinking mode or endpoint
     */
    public static RunConfig toConfig(WorkerShare ws, String workerId) {
        RunConfig recorded = RunStartedMapping.toConfig(ws.getRunStarted());
        return recorded
                .withTarget(recorded.target().withBaseUrl(ws.getBaseUrl()).withApiKeyEnv(ws.getApiKeyEnv()))
                .withIdentity(recorded.identity().withRunId(ws.getRunId()).withWorkerId(workerId))
                .withWarmup(new WarmupConfig(ws.getClientWarmupS(), ws.getWarmupRequests(), ws.getWarmupPrimeCache()))
                .withServerMetrics(ServerMetricsConfig.parse(ws.getServerMetrics()));
    }

    /**
     * @param ws a share; not null
     * @return the share of the plan it names
     */
    public static PlanShare planShare(WorkerShare ws) {
        return new PlanShare(ws.getShare(), ws.getShares());
    }
}
