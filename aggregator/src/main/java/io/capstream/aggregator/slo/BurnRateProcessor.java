package io.capstream.aggregator.slo;

import io.capstream.aggregator.window.WindowKey;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.capstream.schemas.avro.WindowSummary;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Burn-rate alerts ({@link BurnRatePolicy}): keeps each closed window's requests and bad requests per
 * {@code target|model|bucket} in {@link SloTopology#BURN_STORE} (as long as the longest rule's long window), and after
 * each window evaluates every rule ({@link BurnRates}; a rule judges once the series has windows covering its short
 * window); a rule that starts firing publishes {@code BREACH}, one that
 * stops publishes {@code RECOVERED} (decision {@code burn_rate}, with the rule, both burn rates and the windows). A
 * window without {@code goodput_requests} (no SLO set) is skipped. The last state per
 * {@code target|model|bucket|burn:rule} is kept in {@link SloTopology#STATE_STORE}, every alert also in
 * {@link SloTopology#HISTORY_STORE}. Output key: {@code target|model}.
 */
final class BurnRateProcessor implements Processor<String, WindowSummary, String, SloBreach> {
    private final BurnRatePolicy policy;
    private final String objective;
    private final Clock clock;
    private final Consumer<SloBreach> listener;
    private ProcessorContext<String, SloBreach> context;
    private WindowStore<String, byte[]> counts;
    private KeyValueStore<String, SloBreach> state;
    private WindowStore<String, SloBreach> history;

    BurnRateProcessor(SloTopologyConfig config) {
        this.policy = config.burnRate();
        this.clock = config.clock();
        this.listener = config.listener();
        String perRequest = config.slos().stream().filter(Slo::perRequest).map(Slo::text)
                .collect(Collectors.joining(","));
        this.objective = String.format(java.util.Locale.ROOT, "%s%s @ %s%%",
                perRequest.isEmpty() ? "no failure" : perRequest, perRequest.isEmpty() ? "" : ", no failure",
                stripZeros(policy.target() * 100));
    }

    @Override
    public void init(ProcessorContext<String, SloBreach> context) {
        this.context = context;
        this.counts = context.getStateStore(SloTopology.BURN_STORE);
        this.state = context.getStateStore(SloTopology.STATE_STORE);
        this.history = context.getStateStore(SloTopology.HISTORY_STORE);
    }

    @Override
    public void process(Record<String, WindowSummary> record) {
        WindowSummary s = record.value();
        if (s.getGoodputRequests() == null) {
            return;
        }
        WindowKey key = new WindowKey(s.getTarget(), s.getModel(), s.getContextBucket());
        String series = key.encode();
        long bad = Math.max(0, s.getRequests() - s.getGoodputRequests());
        counts.put(series, ByteBuffer.allocate(16).putLong(s.getRequests()).putLong(bad).array(), s.getWindowStartMs());
        long end = s.getWindowEndMs();
        List<BurnRates.WindowCount> windows = new ArrayList<>();
        try (WindowStoreIterator<byte[]> it = counts.fetch(series, end - policy.longest().toMillis(), end)) {
            while (it.hasNext()) {
                var kv = it.next();
                ByteBuffer b = ByteBuffer.wrap(kv.value);
                windows.add(new BurnRates.WindowCount(kv.key, b.getLong(), b.getLong()));
            }
        }
        for (BurnRateRule rule : policy.rules()) {
            BurnRates.Result r = BurnRates.evaluate(windows, end, rule, policy.budget());
            if (!r.judged()) {
                continue;
            }
            String stateKey = series + WindowKey.SEP + "burn:" + rule.name();
            SloBreach last = state.get(stateKey);
            boolean firing = last != null && last.getState() == SloState.BREACH;
            if (r.firing() == firing) {
                continue;
            }
            SloBreach alert = SloBreach.newBuilder()
                    .setTarget(key.target()).setModel(key.model()).setContextBucket(key.bucket())
                    .setSlo(objective).setMetric("burn_rate").setComparison("<").setThreshold(rule.factor())
                    .setObserved(r.longRate())
                    .setState(r.firing() ? SloState.BREACH : SloState.RECOVERED)
                    .setWindowStartMs(s.getWindowStartMs()).setWindowEndMs(end).setDetectedAtMs(clock.millis())
                    .setDecision("burn_rate").setSamples(r.longRequests()).setRule(rule.name())
                    .setSeverity(rule.severity()).setBurnRate(r.longRate()).setBurnRateShort(r.shortRate())
                    .setLongWindowMs(rule.longWindow().toMillis()).setShortWindowMs(rule.shortWindow().toMillis())
                    .build();
            state.put(stateKey, alert);
            history.put(stateKey, alert, s.getWindowStartMs());
            context.forward(new Record<>(key.targetModel(), alert, record.timestamp()));
            listener.accept(alert);
        }
    }

    private static String stripZeros(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
