package io.capstream.aggregator.api;

import io.capstream.schemas.avro.SloBreach;
import io.capstream.schemas.avro.SloState;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The firing SLO and burn-rate alerts as a Prometheus state gauge in the style of Prometheus' own {@code ALERTS}:
 * {@code capstream_alerts{alertname, alertstate="firing", severity, slo, target, model, context_bucket} 1} for each
 * alert whose latest state is {@code BREACH}; a {@code RECOVERED} alert removes its series. {@code alertname} is the
 * burn-rate rule (e.g. {@code page-1h-5m}) or the SLO's metric (e.g. {@code ttft_p95_ms}); {@code severity} is
 * {@code page}/{@code ticket} for burn-rate alerts and {@code slo} for SLO alerts; {@code slo} is the SLO as given.
 * Fed as the SLO topology's listener ({@code SloTopologyConfig.withListener(collector)}), on the stream threads; it
 * knows the alerts this process published since it started (not those of other instances, nor those before a
 * restart: {@code /api/alerts?active=true} lists those). Register it on the {@code PrometheusRegistry}. Thread-safe.
 */
public final class AlertStateCollector implements Collector, Consumer<SloBreach> {
    /** The gauge's name. */
    public static final String NAME = "capstream_alerts";
    private final Map<String, Labels> firing = new ConcurrentHashMap<>();

    /** Records an alert's new state. @param alert the published alert; not null */
    @Override
    public void accept(SloBreach alert) {
        String name = alert.getRule() != null ? alert.getRule() : alert.getMetric();
        String key = alert.getTarget() + "|" + alert.getModel() + "|" + alert.getContextBucket() + "|"
                + (alert.getRule() != null ? "burn:" + alert.getRule() : alert.getSlo());
        if (alert.getState() == SloState.BREACH) {
            firing.put(key, Labels.of("alertname", name, "alertstate", "firing",
                    "severity", alert.getSeverity() != null ? alert.getSeverity() : "slo", "slo", alert.getSlo(),
                    "target", alert.getTarget(), "model", alert.getModel(), "context_bucket", alert.getContextBucket()));
        } else {
            firing.remove(key);
        }
    }

    @Override
    public MetricSnapshot collect() {
        List<GaugeDataPointSnapshot> points = firing.values().stream()
                .map(l -> new GaugeDataPointSnapshot(1.0, l, null)).toList();
        return new GaugeSnapshot(new MetricMetadata(NAME, "SLO and burn-rate alerts now firing (1 per alert; a resolved"
                + " alert has no series), as published on capstream.alerts by this aggregator instance"), points);
    }

    @Override
    public String getPrometheusName() {
        return NAME;
    }
}
