package io.capstream.aggregator.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.capstream.aggregator.slo.SloJudgement.Verdict;
import io.capstream.schemas.avro.Quantiles;
import io.capstream.schemas.avro.WindowSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class SloJudgeTest {
    private static WindowSummary withTtft(long n, double p95, List<Double> ci) {
        WindowSummary s = SimulatedWindows.summary(0, n, 0, n);
        s.setTtftMs(Quantiles.newBuilder().setCount(n).setP50(p95 / 2).setP95(p95).setP99(p95 * 1.2).setP95Ci(ci)
                .setCiUnavailable(ci == null ? java.util.Map.of("p95", n + " values are too few") : null).build());
        return s;
    }

    @Test
    void aSummaryWithoutIntervalFieldsIsDecidedOnItsPointValue() {
        Slo slo = SloParser.parse("ttft_p95_ms<=500");
        WindowSummary s = withTtft(100, 900, null);
        s.getTtftMs().setCiUnavailable(null); // written before the window path filled intervals
        SloJudgement j = SloJudge.judge(slo, s, SloDecision.interval());
        assertThat(j.verdict()).as("no interval and no reason: point value with the minimum sample count")
                .isEqualTo(Verdict.VIOLATED);
        assertThat(j.interval()).isNull();
        WindowSummary small = withTtft(20, 900, null);
        small.getTtftMs().setCiUnavailable(null);
        assertThat(SloJudge.judge(slo, small, SloDecision.interval()).verdict()).as("20 values < 30")
                .isEqualTo(Verdict.UNDECIDED);
    }

    @Test
    void aPercentileIntervalDecidesOnlyWhenWhollyOnOneSide() {
        Slo slo = SloParser.parse("ttft_p95_ms<=500");
        SloDecision d = SloDecision.interval();
        assertThat(SloJudge.judge(slo, withTtft(100, 560, List.of(510.0, 640.0)), d).verdict())
                .as("interval wholly above the objective").isEqualTo(Verdict.VIOLATED);
        assertThat(SloJudge.judge(slo, withTtft(100, 560, List.of(480.0, 640.0)), d).verdict())
                .as("interval across the objective, point above").isEqualTo(Verdict.UNDECIDED);
        assertThat(SloJudge.judge(slo, withTtft(100, 450, List.of(400.0, 499.0)), d).verdict())
                .as("interval wholly below").isEqualTo(Verdict.MET);
        SloJudgement none = SloJudge.judge(slo, withTtft(40, 900, null), d);
        assertThat(none.verdict()).as("no interval (40 values)").isEqualTo(Verdict.UNDECIDED);
        assertThat(none.observed()).isEqualTo(900.0);
        assertThat(none.samples()).isEqualTo(40L);
    }

    @Test
    void aLowerBoundSloIsViolatedWhenTheWholeIntervalIsBelowIt() {
        Slo slo = SloParser.parse("decode_p50_tok_s>=20");
        WindowSummary s = SimulatedWindows.summary(0, 50, 0, 50);
        s.setDecodeTokS(Quantiles.newBuilder().setCount(50).setP50(15).setP95(25).setP99(30)
                .setP50Ci(List.of(12.0, 18.0)).build());
        assertThat(SloJudge.judge(slo, s, SloDecision.interval()).verdict()).isEqualTo(Verdict.VIOLATED);
        s.getDecodeTokS().setP50Ci(List.of(12.0, 21.0));
        assertThat(SloJudge.judge(slo, s, SloDecision.interval()).verdict()).isEqualTo(Verdict.UNDECIDED);
    }

    @Test
    void pointDecisionsNeedTheMinimumSampleCount() {
        Slo slo = SloParser.parse("ttft_p95_ms<=500");
        assertThat(SloJudge.judge(slo, withTtft(29, 900, null), SloDecision.point(30)).verdict())
                .as("29 values < 30").isEqualTo(Verdict.UNDECIDED);
        SloJudgement j = SloJudge.judge(slo, withTtft(30, 900, List.of(100.0, 1000.0)), SloDecision.point(30));
        assertThat(j.verdict()).as("30 values, point 900 > 500").isEqualTo(Verdict.VIOLATED);
        assertThat(j.interval()).as("point decisions carry no interval").isNull();
    }

    @Test
    void errorRateUsesTheWilsonIntervalOfTheProportion() {
        Slo slo = SloParser.parse("error_rate<=0.05");
        // 3 of 20 failed: 15%, Wilson 95% [0.052, 0.360]: wholly above 5%
        SloJudgement j = SloJudge.judge(slo, SimulatedWindows.summary(0, 20, 3, 17), SloDecision.interval());
        assertThat(j.verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(j.interval().get(0)).as("Wilson low end of 3/20").isCloseTo(0.0524, within(0.001));
        assertThat(j.interval().get(1)).as("Wilson high end of 3/20").isCloseTo(0.3604, within(0.001));
        // 2 of 20 failed: 10%, Wilson [0.028, 0.301] straddles 5%
        assertThat(SloJudge.judge(slo, SimulatedWindows.summary(0, 20, 2, 18), SloDecision.interval()).verdict())
                .isEqualTo(Verdict.UNDECIDED);
        // 0 of 100 failed: Wilson [0, 0.037]: met
        assertThat(SloJudge.judge(slo, SimulatedWindows.summary(0, 100, 0, 100), SloDecision.interval()).verdict())
                .isEqualTo(Verdict.MET);
    }

    @Test
    void goodputUsesTheGoodRequests() {
        Slo slo = SloParser.parse("goodput>=0.9");
        SloJudgement j = SloJudge.judge(slo, SimulatedWindows.summary(0, 100, 0, 70), SloDecision.interval());
        assertThat(j.verdict()).as("70 of 100 good, Wilson high end about 0.78 < 0.9").isEqualTo(Verdict.VIOLATED);
        assertThat(j.samples()).isEqualTo(100L);
    }

    @Test
    void throughputHasNoIntervalAndIsDecidedOnItsPointValue() {
        Slo slo = SloParser.parse("output_throughput_tok_s>=100");
        WindowSummary s = SimulatedWindows.summary(0, 40, 0, 40);
        s.setOutputThroughputTokS(50);
        assertThat(SloJudge.judge(slo, s, SloDecision.interval()).verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(SloJudge.judge(slo, SimulatedWindows.summary(0, 10, 0, 10), SloDecision.interval()).verdict())
                .as("10 requests < the default minimum of 30").isEqualTo(Verdict.UNDECIDED);
    }
}
