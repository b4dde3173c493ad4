package io.capstream.aggregator.slo;

import io.capstream.aggregator.report.calc.RunSlo;
import io.capstream.aggregator.report.calc.RunSloParser;
import io.capstream.schemas.avro.RequestTiming;

/**
 * The SLO grammar ({@link SloParser}) as the report needs it: a {@link RunSloParser} whose
 * {@link RunSlo}s read a percentile SLO's quantity from a report row. Give {@code ReportSlos::parse}
 * to the report topology ({@code ReportTopologyConfig#withSloParser}) or to
 * {@code ReportCalculator.compute(RunData, RunSloParser)}.
 */
public final class ReportSlos {
    private ReportSlos() {
    }

    /**
     * @param text the SLO, e.g. {@code ttft_p95_ms<=300}; not null
     * @return the SLO for the report
     * @throws SloParseException when the text is not a valid SLO
     */
    public static RunSlo parse(String text) {
        return new ReportSlo(SloParser.parse(text));
    }

    /**
     * A parsed {@link Slo} seen by the report. Row values: ttft {@code ttft_ms}, ttfo
     * {@code time_to_first_output_ms}, e2e {@code e2e_ms}, itl {@code mean_inter_token_latency_ms}
     * (ms); decode {@code decode_tok_s}, prefill {@code effective_prefill_tok_s} (tokens/s).
     *
     * @param slo the parsed SLO; not null
     */
    record ReportSlo(Slo slo) implements RunSlo {
        @Override
        public String text() {
            return slo.text();
        }

        @Override
        public String metric() {
            return slo.metric();
        }

        @Override
        public double threshold() {
            return slo.threshold();
        }

        @Override
        public boolean perRequest() {
            return slo.perRequest();
        }

        @Override
        public int percentile() {
            return slo.percentile();
        }

        @Override
        public Double rowValue(RequestTiming row) {
            if (slo.quantity() == null) {
                return null;
            }
            return switch (slo.quantity()) {
                case TTFT -> row.getTtftMs();
                case TTFO -> row.getTimeToFirstOutputMs();
                case E2E -> row.getE2eMs();
                case ITL -> row.getMeanInterTokenLatencyMs();
                case DECODE -> row.getDecodeTokS();
                case PREFILL -> row.getEffectivePrefillTokS();
            };
        }

        @Override
        public boolean metBy(double observed) {
            return slo.metBy(observed);
        }
    }
}
