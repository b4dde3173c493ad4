package io.capstream.aggregator.slo;

import io.capstream.aggregator.window.WindowKey;
import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.capstream.schemas.avro.WindowSummary;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Evaluates every SLO on each closed window and publishes state changes: the first window of a
 * (target, model, bucket, SLO) whose verdict ({@link SloJudge} under the configured {@link SloDecision}) is
 * violated publishes {@code BREACH}; the next window whose verdict is met publishes {@code RECOVERED}. An
 * undecided window (no value, too few samples, or under interval decisions an interval that straddles the
 * threshold) changes nothing. The last published alert per
 * {@code target|model|bucket|slo} is kept in {@link SloTopology#STATE_STORE} (so a state that is
 * {@code BREACH} there is an active breach); every alert is also written to the history window
 * store {@link SloTopology#HISTORY_STORE}. Output key: {@code target|model}.
 */
final class SloAlertProcessor implements Processor<String, WindowSummary, String, SloBreach> {
    private final List<Slo> slos;
    private final Clock clock;
    private final SloDecision decision;
    private final Consumer<SloBreach> listener;
    private ProcessorContext<String, SloBreach> context;
    private KeyValueStore<String, SloBreach> state;
    private WindowStore<String, SloBreach> history;

    SloAlertProcessor(SloTopologyConfig config) {
        this.slos = config.slos();
        this.clock = config.clock();
        this.decision = config.decision();
        this.listener = config.listener();
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
            SloJudgement judgement = SloJudge.judge(slo, summary, decision);
            if (judgement.verdict() == SloJudgement.Verdict.UNDECIDED) {
                continue;
            }
            boolean met = judgement.verdict() == SloJudgement.Verdict.MET;
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
                    .setObserved(judgement.observed())
                    .setDecision(judgement.interval() != null ? SloDecision.Mode.INTERVAL.label()
                            : SloDecision.Mode.POINT.label())
                    .setInterval(judgement.interval())
                    .setSamples(judgement.samples())
                    .setState(met ? SloState.RECOVERED : SloState.BREACH)
                    .setWindowStartMs(summary.getWindowStartMs())
                    .setWindowEndMs(summary.getWindowEndMs())
                    .setDetectedAtMs(clock.millis())
                    .build();
            state.put(stateKey, alert);
            history.put(stateKey, alert, summary.getWindowStartMs());
            context.forward(new Record<>(key.targetModel(), alert, record.timestamp()));
            listener.accept(alert);
        }
    }
}
