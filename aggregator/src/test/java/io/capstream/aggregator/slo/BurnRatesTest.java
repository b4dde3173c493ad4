package io.capstream.aggregator.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.capstream.aggregator.slo.BurnRates.WindowCount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BurnRatesTest {
    private static final BurnRateRule PAGE = new BurnRateRule("page", 14.4, Duration.ofHours(1), Duration.ofMinutes(5));

    @Test
    void ratesAreTheBadShareOverTheBudgetInEachWindow() {
        List<WindowCount> w = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            w.add(new WindowCount(i * 60_000L, 100, i >= 55 ? 20 : 0)); // the last 5 minutes: 20% bad
        }
        w.add(new WindowCount(-60_000L, 100, 100)); // before the hour: not counted
        BurnRates.Result r = BurnRates.evaluate(w, 60 * 60_000L, PAGE, 0.01);
        assertThat(r.shortRate()).as("5 min at 20% bad / 1% budget").isCloseTo(20.0, within(1e-9));
        assertThat(r.longRate()).as("100 bad of 6000 over the hour / 1%").isCloseTo(100.0 / 6000 / 0.01, within(1e-9));
        assertThat(r.longRequests()).isEqualTo(6000L);
        assertThat(r.firing()).as("the long window is below 14.4").isFalse();
    }

    @Test
    void itFiresOnlyWhenBothWindowsBurnFastEnough() {
        List<WindowCount> w = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            w.add(new WindowCount(i * 60_000L, 10, 2)); // 20% bad all hour
        }
        assertThat(BurnRates.evaluate(w, 60 * 60_000L, PAGE, 0.01).firing()).isTrue();
        for (int i = 55; i < 60; i++) {
            w.set(i, new WindowCount(i * 60_000L, 10, 0)); // fixed 5 minutes ago
        }
        BurnRates.Result r = BurnRates.evaluate(w, 60 * 60_000L, PAGE, 0.01);
        assertThat(r.longRate()).as("the hour still burns").isGreaterThan(14.4);
        assertThat(r.firing()).as("the short window resolves it").isFalse();
        assertThat(BurnRates.evaluate(List.of(), 0, PAGE, 0.01).longRate()).as("no requests burn nothing").isZero();
    }

    @Test
    void aRuleJudgesOnlyOnceTheWindowsCoverItsShortWindow() {
        List<WindowCount> w = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            w.add(new WindowCount(i * 60_000L, 10, 10)); // everything fails, for 4 minutes
        }
        BurnRates.Result r = BurnRates.evaluate(w, 4 * 60_000L, PAGE, 0.01);
        assertThat(r.judged()).as("4 minutes < the 5-minute short window").isFalse();
        assertThat(r.firing()).isFalse();
        w.add(new WindowCount(4 * 60_000L, 10, 10));
        assertThat(BurnRates.evaluate(w, 5 * 60_000L, PAGE, 0.01).firing()).as("5 minutes of failures").isTrue();
    }

    @Test
    void ruleNamesAndValidation() {
        assertThat(BurnRatePolicy.workbookRules()).extracting(BurnRateRule::name)
                .containsExactly("page-1h-5m", "page-6h-30m", "ticket-3d-6h");
        assertThat(BurnRatePolicy.workbook(0.99).longest()).isEqualTo(Duration.ofDays(3));
        assertThat(new BurnRateRule("page", 2, Duration.ofMinutes(90), Duration.ofSeconds(30)).name())
                .isEqualTo("page-90m-30s");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new BurnRatePolicy(1.0, BurnRatePolicy.workbookRules()))
                .hasMessageContaining("--slo-target must be between 0 and 1");
    }
}
