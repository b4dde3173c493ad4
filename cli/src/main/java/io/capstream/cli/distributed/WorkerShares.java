package io.capstream.cli.distributed;

import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.run.LoadShape;
import io.capstream.loadgen.run.PlanShare;
import io.capstream.loadgen.run.ReportContext;
import io.capstream.loadgen.run.RequestShape;
import io.capstream.loadgen.run.RunConfig;
import io.capstream.loadgen.run.RunIdentity;
import io.capstream.loadgen.run.TargetConfig;
import io.capstream.loadgen.run.WarmupConfig;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.workload.ThinkingMode;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.avro.WorkerShare;
import io.capstream.schemas.text.HttpUrls;
import java.util.List;

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
     * Rebuilds the run's configuration on a worker: every workload value from RunStarted, the target from the
     * share, the worker's own id.
     *
     * @param ws       the share; not null
     * @param workerId this worker's id; not null
     * @return the configuration (not validated: the API key variable must exist on this worker)
     * @throws IllegalArgumentException when RunStarted names an unknown arrival process or thinking mode
     */
    public static RunConfig toConfig(WorkerShare ws, String workerId) {
        RunStarted rs = ws.getRunStarted();
        ArrivalMode arrival = ArrivalMode.parse(rs.getArrival());
        TargetConfig target = new TargetConfig(ws.getBaseUrl(), false, rs.getModel(), rs.getEngine(),
                ws.getApiKeyEnv(), rs.getTimeoutS() != null ? rs.getTimeoutS() : RunConfig.DEFAULT_TIMEOUT_S,
                rs.getKeepAlive(), io.capstream.loadgen.workload.ApiEndpoint.parse(rs.getEndpoint()), List.of());
        LoadShape load = new LoadShape(rs.getRequests(), rs.getConcurrency(), rs.getBurst(), arrival, rs.getRateRps(),
                rs.getMaxInFlight(), rs.getDurationS(), rs.getRampUpS());
        RequestShape request = new RequestShape(
                rs.getSharedPrefixTokens() != null ? rs.getSharedPrefixTokens() : RunConfig.DEFAULT_SHARED_PREFIX_TOKENS,
                rs.getContextTokens() == null ? 0 : rs.getContextTokens(), rs.getMaxTokens(),
                rs.getMaxContextTokens() == null ? 0 : rs.getMaxContextTokens(),
                rs.getMarginTokens() != null ? rs.getMarginTokens() : RunConfig.DEFAULT_MARGIN,
                // RunStarted holds the resolved mode: disabled whenever --no-thinking was set
                rs.getNoThinking() ? ThinkingMode.DEFAULT : ThinkingMode.parse(rs.getThinkingMode()),
                rs.getNoThinking(), rs.getReasoningEffort(), null, null, null, null,
                rs.getExtraBodyJson() == null ? null
                        : io.capstream.loadgen.workload.ExtraBody.parse(rs.getExtraBodyJson()),
                rs.getPromptSalt());
        RunIdentity identity = new RunIdentity(ws.getRunId(), null, workerId, rs.getExpectedWorkers(),
                rs.getContextSeed(), rs.getGpu());
        return new RunConfig(target, load, request, identity,
                new WarmupConfig(ws.getClientWarmupS(), ws.getWarmupRequests(), ws.getWarmupPrimeCache()),
                new ReportContext(rs.getSlos(), rs.getSweep(), rs.getRerunOf()),
                ServerMetricsConfig.parse(ws.getServerMetrics()));
    }

    /**
     * @param ws a share; not null
     * @return the share of the plan it names
     */
    public static PlanShare planShare(WorkerShare ws) {
        return new PlanShare(ws.getShare(), ws.getShares());
    }
}
