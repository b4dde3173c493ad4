package io.capstream.aggregator.slo;

import io.capstream.aggregator.window.WindowKey;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.capstream.schemas.avro.WindowSummary;
import java.time.Clock;
import java.util.List;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Evaluates every SLO on each closed window and publishes state changes: the first violating
 * window of a (target, model, bucket, SLO) publishes {@code BREACH}; the next window that meets
 * the SLO again publishes {@code RECOVERED}. A window without a value for the SLO's metric
 * (e.g. no completed request) changes nothing. The last published alert per
 * {@code target|model|bucket|slo} is kept in {@link SloTopology#STATE_STORE} (so a state that is
 * {@code BREACH} there is an active breach); every alert is also written to the history window
 * store {@link SloTopology#HISTORY_STORE}. Output key: {@code target|model}.
 */
final class SloAlertProcessor implements Processor<String, WindowSummary, String, SloBreach> {
    private final List<Slo> slos;
    private final Clock clock;
    private ProcessorContext<String, SloBreach> context;
    private KeyValueStore<String, SloBreach> state;
    private WindowStore<String, SloBreach> history;

    SloAlertProcessor(SloTopologyConfig config) {
        this.slos = config.slos();
        this.clock = config.clock();
    }

    @Override
    public void init(ProcessorContext<String, SloBreach> context) {
        this.context = context;
        this.state = context.getStateStore(SloTopology.STATE_STORE);
        this.history = context.getStateStore(SloTopology.HISTORY_STORE);
    }

    @Override
    public void process(Record<String, WindowSummary> record) {
        WindowSummary summary = record.value();
        WindowKey key = new WindowKey(summary.getTarget(), summary.getModel(), summary.getContextBucket());
        for (Slo slo : slos) {
            Boolean judged = slo.judge(summary);
            if (judged == null) {
                continue;
            }
            boolean met = judged;
            double observed = slo.observe(summary);
            String stateKey = key.encode() + WindowKey.SEP + slo.text();
            SloBreach last = state.get(stateKey);
            boolean breached = last != null && last.getState() == SloState.BREACH;
            if (met == !breached) {
                continue; // no change: still met, or still breached
            }
            SloBreach alert = SloBreach.newBuilder()
                    .setTarget(key.target())
                    .setModel(key.model())
                    .setContextBucket(key.bucket())
                    .setSlo(slo.text())
                    .setMetric(slo.metric())
                    .setComparison(slo.comparison().symbol())
                    .setThreshold(slo.threshold())
                    .setObserved(observed)
                    .setState(met ? SloState.RECOVERED : SloState.BREACH)
                    .setWindowStartMs(summary.getWindowStartMs())
                    .setWindowEndMs(summary.getWindowEndMs())
                    .setDetectedAtMs(clock.millis())
                    .build();
            state.put(stateKey, alert);
            history.put(stateKey, alert, summary.getWindowStartMs());
            context.forward(new Record<>(key.targetModel(), alert, record.timestamp()));
        }
    }
}
