package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.LoadStage;
import io.capstream.schemas.load.RateSchedule;
import java.util.ArrayList;
import java.util.List;

/**
 * Offered against achieved rate per segment of a {@code --rate-schedule} ({@code LoadHealth.stages}, issue 30).
 * The segments are the spans between consecutive points of the schedule, plus {@code [0, first point]} when the
 * first point is after T0, plus the span after the last point; each is clipped to the run, {@code [0, last actual
 * start]}, and dropped when nothing of it is left. For a segment {@code [a, b]} (seconds after T0):
 * {@code offered_rate_rps} = (Λ(b) - Λ(a)) / (b - a) with Λ = {@link RateSchedule#expectedArrivals}, and
 * {@code achieved_rate_rps} = requests whose actual start lies in {@code [a, b)} (the last segment: {@code [a, b]})
 * / (b - a). Pure function.
 */
final class LoadStagesCalculator {
    private LoadStagesCalculator() {
    }

    /**
     * @param schedule {@code RunStarted.rate_schedule} (canonical text), or null
     * @param spans    every request of the run; not null
     * @return the stages in time order; null without a schedule, when it cannot be read, or without a request
     */
    static List<LoadStage> compute(String schedule, List<RequestSpan> spans) {
        if (schedule == null || spans.isEmpty()) {
            return null;
        }
        RateSchedule rs;
        try {
            rs = RateSchedule.parse(schedule);
        } catch (IllegalArgumentException e) {
            return null;
        }
        double runEnd = spans.stream().mapToLong(RequestSpan::startNs).max().orElse(0) / 1e9;
        List<Double> bounds = new ArrayList<>();
        if (rs.points().get(0).atS() > 0) {
            bounds.add(0.0);
        }
        rs.points().forEach(p -> bounds.add(p.atS()));
        bounds.add(Math.max(runEnd, rs.lastPointS()));
        List<LoadStage> out = new ArrayList<>();
        for (int i = 0; i + 1 < bounds.size(); i++) {
            double a = bounds.get(i);
            double b = Math.min(bounds.get(i + 1), runEnd);
            if (b <= a) {
                break;
            }
            boolean last = b >= runEnd;
            int n = 0;
            for (RequestSpan s : spans) {
                double t = s.startNs() / 1e9;
                if (t >= a && (t < b || (last && t <= b))) {
                    n++;
                }
            }
            double len = b - a;
            out.add(LoadStage.newBuilder().setStartS(a).setEndS(b)
                    .setOfferedRateRps((rs.expectedArrivals(b) - rs.expectedArrivals(a)) / len)
                    .setAchievedRateRps(n / len).setRequests(n).build());
            if (last) {
                break;
            }
        }
        return out.isEmpty() ? null : out;
    }
}
