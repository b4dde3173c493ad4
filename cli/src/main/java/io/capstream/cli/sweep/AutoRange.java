package io.capstream.cli.sweep;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import java.util.List;

/**
 * What {@code sweep --rate auto} measured and chose (issue 30, {@link AutoRates}): the synchronous step (closed
 * loop, 1 slot), the throughput step (closed loop, every request it may have in flight at once), and the rates of
 * the curve's steps. Written into {@code sweep.json} and the sweep page under {@value #JSON_KEY}.
 *
 * @param synchronousRunId  the synchronous step's run id, {@code <sweep id>}{@value #SYNCHRONOUS_SUFFIX}
 * @param synchronousRps    its completed requests/s, or null when it has none
 * @param throughputRunId   the throughput step's run id, {@code <sweep id>}{@value #THROUGHPUT_SUFFIX}, or null
 *                          when it did not run
 * @param throughputSlots   the throughput step's slots (requests in flight at once)
 * @param throughputRps     its completed requests/s, or null
 * @param rates             the chosen rates, req/s, in step order; empty when none could be chosen
 */
public record AutoRange(String synchronousRunId, Double synchronousRps, String throughputRunId, int throughputSlots,
                        Double throughputRps, List<Double> rates) {
    /** Run id suffix of the synchronous step. */
    public static final String SYNCHRONOUS_SUFFIX = "-sync";
    /** Run id suffix of the throughput step. */
    public static final String THROUGHPUT_SUFFIX = "-max";
    /** Key of this record in sweep.json. */
    public static final String JSON_KEY = "auto";

    /** Copies the rates. */
    public AutoRange {
        rates = List.copyOf(rates);
    }

    /** @return {@code {"synchronous_run_id", "synchronous_rps", "throughput_run_id", "throughput_slots", "throughput_rps", "rates"}} */
    public ObjectNode toJson() {
        ObjectNode o = ArtifactJson.nodes().objectNode();
        o.put("rule", "guidellm-sweep");
        o.put("synchronous_run_id", synchronousRunId);
        o.put("synchronous_rps", synchronousRps);
        o.put("throughput_run_id", throughputRunId);
        o.put("throughput_slots", throughputSlots);
        o.put("throughput_rps", throughputRps);
        rates.forEach(o.putArray("rates")::add);
        return o;
    }

    /**
     * @return the line printed after the probes, e.g. {@code capstream sweep: --rate auto: synchronous 1.92 req/s,
     *     throughput (64 at once) 30.1 req/s: rates 5.44, 8.96, ...}
     */
    public String describe() {
        StringBuilder sb = new StringBuilder("--rate auto: synchronous ").append(fmt(synchronousRps))
                .append(" req/s, throughput (").append(throughputSlots).append(" at once) ").append(fmt(throughputRps))
                .append(" req/s");
        if (rates.isEmpty()) {
            return sb.append(": no rate to run (no request completed)").toString();
        }
        sb.append(": rates ");
        for (int i = 0; i < rates.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(LoadAxis.RATE.format(rates.get(i)));
        }
        return sb.append(" req/s").toString();
    }

    private static String fmt(Double v) {
        return v == null ? "-" : LoadAxis.RATE.format(AutoRates.round(v));
    }
}
