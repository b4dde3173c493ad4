package io.capstream.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 30: which requests are cancelled, and when, drawn per index from the seed only. */
class CancelDrawsTest {

    private static List<Long> draws(CancelDraws d, int n) {
        List<Long> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(d.cancelAfterNs(i));
        }
        return out;
    }

    @Test
    void theSameSeedDrawsTheSameCancelsInAnyOrderAndAnotherSeedOthers() {
        CancelShape shape = new CancelShape(0.5, 0.1, 0.02);
        List<Long> a = draws(new CancelDraws(shape, 42), 200);
        CancelDraws b = new CancelDraws(shape, 42);
        List<Long> backwards = new ArrayList<>();
        for (int i = 199; i >= 0; i--) {
            backwards.add(0, b.cancelAfterNs(i));
        }
        assertThat(backwards).as("draws of seed 42 taken in reverse order").isEqualTo(a);
        assertThat(draws(new CancelDraws(shape, 43), 200)).as("draws of seed 43").isNotEqualTo(a);
    }

    @Test
    void aboutTheRateIsCancelledAtTheMeanTimeWithItsSpreadNeverBelowZero() {
        List<Long> d = draws(new CancelDraws(new CancelShape(0.3, 0.1, 0.2), 7), 10_000);
        long cancelled = d.stream().filter(x -> x != CancelDraws.NOT_CANCELLED).count();
        assertThat(cancelled).as("cancelled of 10,000 at rate 0.3").isBetween(2_800L, 3_200L);
        assertThat(d.stream().filter(x -> x != CancelDraws.NOT_CANCELLED).mapToLong(Long::longValue).min().orElse(-1))
                .as("smallest cancel time, ns (clamped at 0)").isZero();
        List<Long> fixed = draws(new CancelDraws(new CancelShape(1.0, 0.1, null), 7), 50);
        assertThat(fixed).as("rate 1 without a spread: every request at 100 ms").containsOnly(100_000_000L);
    }

    @Test
    void withoutCancellationsNoRequestIsCancelled() {
        assertThat(draws(new CancelDraws(CancelShape.NONE, 1), 100)).as("NONE").containsOnly(CancelDraws.NOT_CANCELLED);
        assertThat(draws(new CancelDraws(null, 1), 100)).as("null").containsOnly(CancelDraws.NOT_CANCELLED);
        assertThat(draws(new CancelDraws(new CancelShape(0.0, 0.1, null), 1), 100)).as("rate 0")
                .containsOnly(CancelDraws.NOT_CANCELLED);
    }
}
