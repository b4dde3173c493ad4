package io.capstream.aggregator.change;

import io.capstream.aggregator.window.WindowKey;
import io.capstream.schemas.avro.ChangePoint;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import java.time.Clock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Feeds each closed window's watched percentiles ({@link Watched}) to a {@link ChangePointDetector} per
 * {@code target|model|bucket|metric}, its state in {@link ChangeTopology#STATE_STORE}, and publishes each detected
 * shift as a {@code ChangePoint} (key {@code target|model|bucket|metric}), also kept in
 * {@link ChangeTopology#HISTORY_STORE} (at its {@code change_window_start_ms}) and told to the listener. A window with fewer than
 * {@link #MIN_COUNT} values of the quantity is skipped (its p95 would be one of its largest few values).
 */
final class ChangePointProcessor implements Processor<String, WindowSummary, String, ChangePoint> {
    /** Fewest values of a quantity a window needs to be watched. */
    static final int MIN_COUNT = 20;

    /** The watched series: metric name and how to read it from a summary. */
    enum Watched {
        TTFT_P95("ttft_p95_ms", WindowSummary::getTtftMs),
        E2E_P95("e2e_p95_ms", WindowSummary::getE2eMs);

        final String metric;
        final Function<WindowSummary, Quantiles> quantiles;

        Watched(String metric, Function<WindowSummary, Quantiles> quantiles) {
            this.metric = metric;
            this.quantiles = quantiles;
        }
    }

    private final ChangePointDetector detector;
    private final Clock clock;
    private final Consumer<ChangePoint> listener;
    private ProcessorContext<String, ChangePoint> context;
    private KeyValueStore<String, byte[]> states;
    private WindowStore<String, ChangePoint> history;

    ChangePointProcessor(ChangePointDetector detector, Clock clock, Consumer<ChangePoint> listener) {
        this.detector = detector;
        this.clock = clock;
        this.listener = listener;
    }

    @Override
    public void init(ProcessorContext<String, ChangePoint> context) {
        this.context = context;
        this.states = context.getStateStore(ChangeTopology.STATE_STORE);
        this.history = context.getStateStore(ChangeTopology.HISTORY_STORE);
    }

    @Override
    public void process(Record<String, WindowSummary> record) {
        WindowSummary s = record.value();
        WindowKey key = new WindowKey(s.getTarget(), s.getModel(), s.getContextBucket());
        for (Watched w : Watched.values()) {
            Quantiles q = w.quantiles.apply(s);
            if (q == null || q.getCount() < MIN_COUNT) {
                continue;
            }
            String stateKey = key.encode() + WindowKey.SEP + w.metric;
            byte[] bytes = states.get(stateKey);
            CusumState state = bytes == null ? new CusumState() : CusumState.fromBytes(bytes);
            ChangePointDetector.Shift shift = detector.accept(state, s.getWindowStartMs(), q.getP95());
            states.put(stateKey, state.toBytes());
            if (shift == null) {
                continue;
            }
            ChangePoint change = ChangePoint.newBuilder()
                    .setTarget(key.target()).setModel(key.model()).setContextBucket(key.bucket()).setMetric(w.metric)
                    .setDirection(shift.up() ? "up" : "down").setBefore(shift.before()).setAfter(shift.after())
                    .setRelativeChange(shift.relative()).setConfidence(shift.confidence())
                    .setReferenceWindows(shift.referenceCount()).setAfterWindows(shift.afterCount())
                    .setChangeWindowStartMs(shift.changeStartMs()).setDetectedWindowEndMs(s.getWindowEndMs())
                    .setDetectedAtMs(clock.millis()).build();
            history.put(stateKey, change, change.getChangeWindowStartMs());
            context.forward(new Record<>(stateKey, change, record.timestamp()));
            listener.accept(change);
        }
    }
}
