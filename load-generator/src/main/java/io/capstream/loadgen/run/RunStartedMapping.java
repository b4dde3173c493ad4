package io.capstream.loadgen.run;

import io.capstream.loadgen.client.HttpClientKind;
import io.capstream.loadgen.images.ImageSize;

import io.capstream.loadgen.stop.StopRules;
import io.capstream.loadgen.arrival.ArrivalMode;
import io.capstream.loadgen.servermetrics.ServerMetricsConfig;
import io.capstream.loadgen.workload.ApiEndpoint;
import io.capstream.loadgen.workload.Dataset;
import io.capstream.loadgen.workload.ExtraBody;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.loadgen.workload.LengthDistribution;
import io.capstream.loadgen.workload.ThinkingMode;
import io.capstream.schemas.avro.RunStarted;
import io.capstream.schemas.load.RateSchedule;
import io.capstream.schemas.load.SteadyStateWindow;
import java.util.ArrayList;
import java.util.List;

/**
 * The one mapping between a run's {@link RunConfig} (with its {@link RunPlan}) and the settings its
 * {@link RunStarted} records (spec §1, §3.1, §9.2), both ways: the generator records a run with
 * {@link #toRunStarted}, a distributed worker and {@code capstream rerun} read it back with {@link #toConfig} and
 * apply their variations on the result with the group records' {@code with...} methods. A new run setting is a
 * field of RunStarted (and of the report's RunSettings when the report shows it), a line in each direction here,
 * and the option itself.
 *
 * <p>Round trip: {@code toConfig(toRunStarted(plan))} equals {@code plan.config()} except
 * <ul>
 *   <li>the process-local parts, which RunStarted does not record: the target's {@code simulated}, API key variable
 *       and {@code -H} headers (only their names are recorded; values may be secrets), the run id, run id suffix and
 *       worker id (the events' envelope), the {@code --dataset}, {@code --tokenizer} and {@code --tools} files
 *       (recorded by name and SHA-256), the warm-up and the server-metrics scraping. {@link #toConfig} gives them as absent (not simulated,
 *       none, null, {@link WarmupConfig#NONE}, {@link ServerMetricsConfig#OFF});</li>
 *   <li>what RunStarted records resolved: the planned request count, the slots (closed loop: {@code burst} or
 *       {@code concurrency}; open loop: the in-flight cap, recorded as both {@code concurrency} and
 *       {@code max_in_flight}), the window ({@code --max-model-len}, or the probed one), the largest
 *       {@code max_tokens}, and the thinking mode ({@code --no-thinking} records {@code disabled} and reads back
 *       as the default mode with {@code --no-thinking}); a ramp-up of 0 reads back as none; with images, the
 *       image sizes and format (the defaults when not given); for embeddings and rerank, the batch size; the
 *       {@code --max-error-rate} window (the default when not given);</li>
 *   <li>the {@code --ca-cert} file, recorded by name only ({@link #toConfig} gives none: a rerun names it again);</li>
 *   <li>the base URL as recorded: the event's user-info is masked when the event is emitted.</li>
 * </ul>
 * Stateless.
 */
public final class RunStartedMapping {
    private RunStartedMapping() {
    }

    /**
     * Maps a planned run to its RunStarted: every run setting of {@code plan.config()}, the plan's resolved values
     * (request count, window, largest {@code max_tokens}, context plan, dataset and tokenizer). The caller adds what
     * is not a setting ({@code started_at}, {@code started_at_epoch_ms}, {@code origin}, {@code capstream_version})
     * and masks the event's secrets (the base URL is the config's, verbatim).
     *
     * @param plan the planned run; not null
     * @return a builder with every run setting set; {@code started_at} and {@code started_at_epoch_ms} still to set
     */
    public static RunStarted.Builder toRunStarted(RunPlan plan) {
        RunConfig c = plan.config();
        TargetConfig target = c.target();
        LoadShape load = c.load();
        RequestShape request = c.request();
        RunIdentity identity = c.identity();
        ReportContext report = c.report();
        boolean open = load.arrival() != ArrivalMode.CLOSED;
        Dataset ds = plan.requestPlan().dataset();
        LengthDistribution in = request.inputTokens();
        LengthDistribution out = request.outputTokens();
        ConversationShape conv = c.conversation();
        // --turns 1 is the single-turn run: recorded as absent, so that its report is the reference's, byte for byte
        LengthDistribution turns = conv.multiTurn() ? conv.turns() : null;
        RunStarted.Builder b = RunStarted.newBuilder()
                .setBaseUrl(target.baseUrl())
                .setModel(target.model())
                .setEngine(target.engine())
                .setGpu(identity.gpu())
                .setRequests(plan.requests())
                .setConcurrency(open ? load.effectiveMaxInFlight() : load.effectiveConcurrency())
                .setBurst(load.burst())
                .setSharedPrefixBurst(load.burst() != 0)
                .setContextTokens(request.ctxTokens() == 0 ? null : request.ctxTokens())
                .setContextSeed(identity.seed())
                .setMaxContextTokens(plan.maxModelLen())
                .setMaxTokens(plan.largestMaxTokens())
                .setSharedPrefixTokens(request.sharedPrefixTokens())
                .setMarginTokens(request.margin())
                .setTimeoutS(target.timeoutS())
                .setThinkingMode(request.resolvedThinkingMode().wireName())
                .setNoThinking(request.noThinking())
                .setReasoningEffort(request.reasoningEffort())
                .setPlannedContextTokens(planned(plan.contextPlan().toArray()))
                .setArrival(load.arrival().wireName())
                .setRateRps(open ? load.rateRps() : null)
                .setMaxInFlight(open ? load.effectiveMaxInFlight() : null)
                .setDurationS(load.durationS())
                .setKeepAlive(target.keepAlive())
                .setTraceHeaders(ServerViews.sentNames(target).isEmpty() ? null : ServerViews.sentNames(target))
                .setEndpoint(target.endpoint().label())
                .setHeaderNames(target.headers().stream().map(ExtraHeader::name).toList())
                .setExtraBodyJson(request.extraBody() == null ? null : request.extraBody().json())
                .setPromptSalt(request.promptSalt())
                .setRampUpS(load.rampUpS() == null || load.rampUpS() == 0 ? null : load.rampUpS())
                .setExpectedWorkers(identity.expectedWorkers())
                .setSlos(report.slos())
                .setSweep(report.sweep())
                .setRerunOf(report.rerunOf())
                .setDatasetName(ds == null ? null : ds.name())
                .setDatasetSha256(ds == null ? null : ds.sha256())
                .setDatasetEntries(ds == null ? null : ds.size())
                .setTokenizer(plan.requestPlan().tokenizer())
                .setInputTokensMean(in == null ? null : in.mean())
                .setInputTokensStddev(in == null ? null : in.stddev())
                .setOutputTokensMean(out == null ? null : out.mean())
                .setOutputTokensStddev(out == null ? null : out.stddev())
                .setTurnsMean(turns == null ? null : turns.mean())
                .setTurnsStddev(turns == null ? null : turns.stddev())
                .setThinkTimeS(conv.thinkTimeS())
                .setThinkTimeStddevS(conv.thinkTimeStddevS())
                .setSessionHeader(conv.sessionHeader())
                .setToolsName(conv.tools() == null ? null : String.valueOf(conv.tools().getFileName()))
                .setToolsSha256(conv.tools() == null ? null : sha256(conv.tools()))
                .setToolChoice(conv.toolChoice())
                .setToolResultTokens(conv.toolResultTokens())
                .setToolLatencyS(conv.toolLatencyS())
                .setResponsesState(conv.responsesState())
                .setBurstiness(load.burstiness())
                .setRateSchedule(load.rateSchedule() == null ? null : load.rateSchedule().canonical())
                .setSteadyState(load.steadyState() == null ? null : load.steadyState().canonical())
                .setCancelRate(c.cancel().rate())
                .setCancelAfterS(c.cancel().afterS())
                .setCancelAfterStddevS(c.cancel().afterStddevS())
                .setMaxErrorRate(c.stop().maxErrorRate())
                .setMaxErrorWindow(c.stop().maxErrorRate() == null ? null : c.stop().effectiveErrorWindow())
                .setMaxConsecutiveErrors(c.stop().maxConsecutiveErrors())
                .setStopOnSaturation(c.stop().stopOnSaturation() ? Boolean.TRUE : null)
                .setImages(c.payload().images() == 0 ? null : c.payload().images())
                .setImageSizes(c.payload().imageSizesText())
                .setImageFormat(c.payload().images() == 0 ? null : c.payload().effectiveImageFormat())
                // Integer, not int: a ternary of Integer and int would unbox the null batch of a streamed endpoint
                .setBatch(target.endpoint().streamed() ? c.payload().batch()
                        : Integer.valueOf(c.payload().effectiveBatch()))
                .setInsecure(target.tls().insecure() ? Boolean.TRUE : null)
                .setCaCertName(target.tls().caCert() == null ? null
                        : String.valueOf(target.tls().caCert().getFileName()))
                .setHttpClient(target.httpClient().toString());
        return b;
    }

    /** @return the file's SHA-256, or null when it cannot be read (the run's check read it before) */
    private static String sha256(java.nio.file.Path file) {
        try {
            return io.capstream.loadgen.workload.FileDigest.sha256(file);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * Reads a run's settings back from its RunStarted. A value that events written before it existed lack
     * ({@code shared_prefix_tokens}, {@code margin_tokens}, {@code timeout_s}, {@code http_client}) is the default.
     *
     * @param rs a RunStarted; not null
     * @return the run's configuration without its process-local parts (see the class comment): not simulated, no
     *         API key variable, no headers, no run id, run id suffix or worker id, no dataset or tokenizer file,
     *         {@link WarmupConfig#NONE}, {@link ServerMetricsConfig#OFF}; not validated
     * @throws IllegalArgumentException when a recorded value cannot be read back (an unknown arrival process,
     *                                  thinking mode or endpoint, or an extra body that is not a JSON object)
     */
    public static RunConfig toConfig(RunStarted rs) {
        TargetConfig target = new TargetConfig(rs.getBaseUrl(), false, rs.getModel(), rs.getEngine(), null,
                rs.getTimeoutS() == null ? RunConfig.DEFAULT_TIMEOUT_S : rs.getTimeoutS(), rs.getKeepAlive(),
                ApiEndpoint.parse(rs.getEndpoint()), List.of(),
                new TlsConfig(Boolean.TRUE.equals(rs.getInsecure()), null), rs.getTraceHeaders() != null,
                rs.getHttpClient() == null ? null : HttpClientKind.parse(rs.getHttpClient()));
        LoadShape load = new LoadShape(rs.getRequests(), rs.getConcurrency(), rs.getBurst(),
                ArrivalMode.parse(rs.getArrival()), rs.getRateRps(), rs.getMaxInFlight(), rs.getDurationS(),
                rs.getRampUpS(), rs.getBurstiness(),
                rs.getRateSchedule() == null ? null : RateSchedule.parse(rs.getRateSchedule()),
                rs.getSteadyState() == null ? null : SteadyStateWindow.parse(rs.getSteadyState()));
        CancelShape cancel = new CancelShape(rs.getCancelRate(), rs.getCancelAfterS(), rs.getCancelAfterStddevS());
        StopRules stop = new StopRules(rs.getMaxErrorRate(), rs.getMaxErrorWindow(), rs.getMaxConsecutiveErrors(),
                Boolean.TRUE.equals(rs.getStopOnSaturation()));
        PayloadShape payload = new PayloadShape(rs.getImages() == null ? 0 : rs.getImages(),
                imageSizes(rs.getImageSizes()), rs.getImageFormat(), rs.getBatch());
        RequestShape request = new RequestShape(
                orDefault(rs.getSharedPrefixTokens(), RunConfig.DEFAULT_SHARED_PREFIX_TOKENS),
                orDefault(rs.getContextTokens(), 0), rs.getMaxTokens(), orDefault(rs.getMaxContextTokens(), 0),
                orDefault(rs.getMarginTokens(), RunConfig.DEFAULT_MARGIN),
                // RunStarted holds the resolved mode: disabled whenever --no-thinking was set
                rs.getNoThinking() ? ThinkingMode.DEFAULT : ThinkingMode.parse(rs.getThinkingMode()),
                rs.getNoThinking(), rs.getReasoningEffort(),
                distribution(rs.getInputTokensMean(), rs.getInputTokensStddev()),
                distribution(rs.getOutputTokensMean(), rs.getOutputTokensStddev()), null, null,
                rs.getExtraBodyJson() == null ? null : ExtraBody.parse(rs.getExtraBodyJson()), rs.getPromptSalt());
        RunIdentity identity = new RunIdentity(null, null, null, rs.getExpectedWorkers(), rs.getContextSeed(),
                rs.getGpu());
        ReportContext report = new ReportContext(rs.getSlos(), rs.getSweep(), rs.getRerunOf());
        ConversationShape conversation = new ConversationShape(
                rs.getTurnsMean() == null ? null : new LengthDistribution(rs.getTurnsMean(),
                        rs.getTurnsStddev() == null ? 0 : rs.getTurnsStddev()),
                rs.getThinkTimeS(), rs.getThinkTimeStddevS(), rs.getSessionHeader(), null, rs.getToolChoice(),
                rs.getToolResultTokens(), rs.getToolLatencyS(), rs.getResponsesState());
        return new RunConfig(target, load, request, identity, WarmupConfig.NONE, report, ServerMetricsConfig.OFF,
                conversation, cancel, stop, payload);
    }

    /** @return the sizes of {@code WxH,WxH} text as recorded, or none for null */
    private static List<ImageSize> imageSizes(String text) {
        if (text == null) {
            return List.of();
        }
        List<ImageSize> out = new ArrayList<>();
        for (String s : text.split(",")) {
            String[] wh = s.strip().split("x");
            out.add(new ImageSize(Integer.parseInt(wh[0]), Integer.parseInt(wh[1])));
        }
        return out;
    }

    private static List<Integer> planned(int[] plan) {
        List<Integer> out = new ArrayList<>(plan.length);
        for (int v : plan) {
            out.add(v);
        }
        return out;
    }

    private static LengthDistribution distribution(Double mean, Double stddev) {
        return mean == null ? null : new LengthDistribution(mean, stddev == null ? 0 : stddev);
    }

    private static int orDefault(Integer v, int dflt) {
        return v == null ? dflt : v;
    }
}
