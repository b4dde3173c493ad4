package io.capstream.loadgen.servermetrics;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hawkular.agent.prometheus.text.TextPrometheusMetricDataParser;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Gauge;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.hawkular.agent.prometheus.types.Summary;

/**
 * Reads the Prometheus text exposition format (version 0.0.4, what vLLM, SGLang and llama.cpp serve) with
 * Hawkular's parser ({@code org.hawkular.agent:prometheus-scraper}) into flat samples: gauges and counters
 * as they are, histograms and summaries as their {@code _sum} and {@code _count} (their buckets and
 * quantiles are left out: a run keeps one number per series and scrape). Lines the parser cannot read are
 * skipped, as it does: a body that is not Prometheus text (an HTML page) gives no sample. Stateless.
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    /**
     * @param body the scrape's body, UTF-8; not null
     * @return its samples in exposition order; empty when the body has none (or is not Prometheus text)
     * @throws IOException when the parser fails on the text
     */
    public static List<PrometheusSample> parse(byte[] body) throws IOException {
        List<PrometheusSample> out = new ArrayList<>();
        TextPrometheusMetricDataParser parser = new TextPrometheusMetricDataParser(new ByteArrayInputStream(body));
        try {
            for (MetricFamily f = parser.parse(); f != null; f = parser.parse()) {
                for (Metric m : f.getMetrics()) {
                    Map<String, String> labels = m.getLabels() == null ? Map.of() : Map.copyOf(m.getLabels());
                    if (m instanceof Counter c) {
                        out.add(new PrometheusSample(m.getName(), labels, c.getValue(), "counter"));
                    } else if (m instanceof Gauge g) {
                        out.add(new PrometheusSample(m.getName(), labels, g.getValue(), "gauge"));
                    } else if (m instanceof Histogram h) {
                        out.add(new PrometheusSample(m.getName() + "_sum", labels, h.getSampleSum(), "counter"));
                        out.add(new PrometheusSample(m.getName() + "_count", labels, h.getSampleCount(), "counter"));
                    } else if (m instanceof Summary s) {
                        out.add(new PrometheusSample(m.getName() + "_sum", labels, s.getSampleSum(), "counter"));
                        out.add(new PrometheusSample(m.getName() + "_count", labels, s.getSampleCount(), "counter"));
                    }
                }
            }
        } catch (RuntimeException e) {
            // the parser throws unchecked exceptions (NumberFormatException, IllegalStateException) on bad lines
            throw new IOException("not Prometheus text: " + e.getMessage(), e);
        }
        return out;
    }
}
