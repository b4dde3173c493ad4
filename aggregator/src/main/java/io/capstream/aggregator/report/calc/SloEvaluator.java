package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.Metrics;
import io.capstream.schemas.avro.RequestTiming;
import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import io.capstream.schemas.stats.NearestRank;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates a run's SLOs ({@code RunStarted.slos}) on its report: {@code BenchmarkReport.slo}
 * (artifact key {@code capstream.slo}). Formulas from the schema docs of {@code SloReport} and
 * {@code SloAttainment}, with {@code requests = completed + failed}:
 *
 * <ul>
 *   <li>percentile SLOs: observed = the nearest-rank percentile (spec §8.1) of the quantity over the
 *       rows that have a value; {@code requests_meeting} = rows whose own value meets the threshold
 *       (a row without a value is not held against it); {@code attainment = requests_meeting /
 *       requests}, so failed requests (and successes without a row) count against it;</li>
 *   <li>{@code error_rate} = failed / requests; {@code goodput} = good_requests / requests;
 *       {@code output_throughput_tok_s} = {@code metrics.throughput_tok_s} (null without a usable wall
 *       clock, {@link WallClock#usable});</li>
 *   <li>{@code good_requests} = rows meeting every percentile SLO's threshold;
 *       {@code goodput_rps} = good_requests / wall s (vLLM's request goodput), req/s, null without a
 *       usable wall clock;</li>
 *   <li>{@code met} = observed is not null and meets the threshold; {@code met_all} = every entry met.</li>
 * </ul>
 * An SLO text the parser rejects (the CLI validates them, so it should not happen) gives an entry with
 * metric {@value #INVALID}, threshold 0 and met false. Pure function; thread-safe.
 */
public final class SloEvaluator {
    /** Metric name of an entry whose SLO text could not be parsed. */
    public static final String INVALID = "invalid";

    private SloEvaluator() {
    }

    /**
     * @param texts       the SLO texts, in order; null or empty = no SLOs
     * @param parser      the SLO grammar; not null when {@code texts} is not empty
     * @param rows        the report's rows; not null
     * @param completed   successful requests (with or without a row)
     * @param failed      failed requests
     * @param metrics     the report's anvil metrics; not null
     * @param wallSeconds the run's wall clock, s; null when unknown
     * @return the SLO report, or null when there are no SLOs
     */
    public static SloReport evaluate(List<? extends CharSequence> texts, RunSloParser parser, List<RequestTiming> rows,
                                     int completed, int failed, Metrics metrics, Double wallSeconds) {
        if (texts == null || texts.isEmpty()) {
            return null;
        }
        int requests = completed + failed;
        boolean wallUsable = WallClock.usable(wallSeconds);
        List<RunSlo> slos = new ArrayList<>(texts.size());
        List<String> invalid = new ArrayList<>();
        for (CharSequence t : texts) {
            try {
                slos.add(parser.parse(t.toString()));
                invalid.add(null);
            } catch (IllegalArgumentException e) {
                slos.add(null);
                invalid.add(t.toString());
            }
        }
        int good = 0;
        for (RequestTiming r : rows) {
            boolean meetsAll = true;
            for (RunSlo s : slos) {
                if (s != null && s.perRequest() && !meets(s, r)) {
                    meetsAll = false;
                    break;
                }
            }
            good += meetsAll ? 1 : 0;
        }
        Double goodput = requests == 0 ? null : (double) good / requests;
        List<SloAttainment> entries = new ArrayList<>(slos.size());
        boolean metAll = true;
        for (int i = 0; i < slos.size(); i++) {
            RunSlo s = slos.get(i);
            SloAttainment a = s == null
                    ? SloAttainment.newBuilder().setSlo(invalid.get(i)).setMetric(INVALID).setThreshold(0)
                            .setObserved(null).setMet(false).build()
                    : attainment(s, rows, requests, failed, goodput, wallUsable ? metrics.getThroughputTokS() : null);
            metAll &= a.getMet();
            entries.add(a);
        }
        return SloReport.newBuilder()
                .setSlos(entries)
                .setRequests(requests)
                .setGoodRequests(good)
                .setGoodput(goodput)
                .setGoodputRps(wallUsable ? good / wallSeconds : null)
                .setMetAll(metAll)
                .build();
    }

    private static SloAttainment attainment(RunSlo s, List<RequestTiming> rows, int requests, int failed,
                                            Double goodput, Double outputThroughput) {
        SloAttainment.Builder b = SloAttainment.newBuilder().setSlo(s.text()).setMetric(s.metric())
                .setThreshold(s.threshold());
        Double observed;
        if (s.perRequest()) {
            List<Double> values = new ArrayList<>(rows.size());
            int meeting = 0;
            for (RequestTiming r : rows) {
                values.add(s.rowValue(r));
                meeting += meets(s, r) ? 1 : 0;
            }
            observed = NearestRank.percentile(values, s.percentile());
            b.setRequestsMeeting(meeting).setAttainment(requests == 0 ? null : (double) meeting / requests);
        } else {
            observed = switch (s.metric()) {
                case RunSlo.ERROR_RATE -> requests == 0 ? null : (double) failed / requests;
                case RunSlo.GOODPUT -> goodput;
                case RunSlo.OUTPUT_THROUGHPUT -> outputThroughput;
                default -> null;
            };
            b.setRequestsMeeting(null).setAttainment(null);
        }
        return b.setObserved(observed).setMet(observed != null && s.metBy(observed)).build();
    }

    /** A row meets a percentile SLO when its value does, or when it has no value for the quantity. */
    private static boolean meets(RunSlo s, RequestTiming r) {
        Double v = s.rowValue(r);
        return v == null || s.metBy(v);
    }
}
