package io.capstream.loadgen.stop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StopRuleCheckerTest {
    private static final long MS = 1_000_000L;

    private static EndedRequest ok(int i) {
        return new EndedRequest(i * 10 * MS, i * 10 * MS, i * 10 * MS + 50 * MS, false, false, 20 * MS, null);
    }

    private static EndedRequest failed(int i) {
        return new EndedRequest(i * 10 * MS, i * 10 * MS, i * 10 * MS + 5 * MS, true, false, -1, "InternalServerError");
    }

    private static EndedRequest cancelled(int i) {
        return new EndedRequest(i * 10 * MS, i * 10 * MS, i * 10 * MS + 5 * MS, false, true, -1, null);
    }

    @Test
    void errorRateTripsOnlyOnceTheWindowIsFullAndOverTheLimit() {
        StopRuleChecker c = new StopRuleChecker(new StopRules(0.5, 10, null, false));
        int ended = 0;
        // 6 failures out of the first 6: the window (10) is not full yet
        for (int i = 0; i < 6; i++) {
            assertThat(c.ended(failed(i), ++ended)).as("request %d, window not full", i).isNull();
        }
        // 4 successes: 6 of 10 failed (60% > 50%) when the window fills with the 10th
        for (int i = 6; i < 9; i++) {
            assertThat(c.ended(ok(i), ++ended)).as("request %d", i).isNull();
        }
        StopTrip t = c.ended(ok(9), ++ended);
        assertThat(t).as("10th request fills the window with 6 failures").isNotNull();
        assertThat(t.rule()).isEqualTo(StopRuleChecker.MAX_ERROR_RATE);
        assertThat(t.requestsEnded()).isEqualTo(10);
        assertThat(t.atNs()).as("when the 10th ended").isEqualTo(9 * 10 * MS + 50 * MS);
        assertThat(t.detail()).isEqualTo("6 of the last 10 requests failed (60%), over the 50% limit");
        assertThat(c.ended(failed(10), ++ended)).as("a trip is reported once").isNull();
        assertThat(c.tripped()).isSameAs(t);
    }

    @Test
    void errorRateAtTheLimitDoesNotTripAndTheWindowSlides() {
        StopRuleChecker c = new StopRuleChecker(new StopRules(0.5, 4, null, false));
        int n = 0;
        // F F S S: 2 of 4 = 50%, not over
        assertThat(c.ended(failed(0), ++n)).isNull();
        assertThat(c.ended(failed(1), ++n)).isNull();
        assertThat(c.ended(ok(2), ++n)).isNull();
        assertThat(c.ended(ok(3), ++n)).as("2 of 4 is the limit, not over it").isNull();
        // window F S S F -> still 2; then S S F F -> 2; then S F F F -> 3 of 4 trips
        assertThat(c.ended(failed(4), ++n)).isNull();
        assertThat(c.ended(failed(5), ++n)).as("S S F F: the two oldest failures left the window").isNull();
        StopTrip t = c.ended(failed(6), ++n);
        assertThat(t).as("S F F F").isNotNull();
        assertThat(t.detail()).startsWith("3 of the last 4 requests failed (75%)");
    }

    @Test
    void cancelledRequestsAreNotErrorsAndDoNotCount() {
        StopRuleChecker c = new StopRuleChecker(new StopRules(0.1, 5, 3, false));
        int n = 0;
        for (int i = 0; i < 20; i++) {
            assertThat(c.ended(cancelled(i), ++n)).as("cancelled request %d", i).isNull();
        }
        assertThat(c.ended(failed(20), ++n)).isNull();
        assertThat(c.ended(cancelled(21), ++n)).as("a cancel does not break the row either").isNull();
        assertThat(c.ended(failed(22), ++n)).isNull();
        StopTrip t = c.ended(failed(23), ++n);
        assertThat(t).as("3 failures in a row, cancels between them ignored").isNotNull();
        assertThat(t.rule()).isEqualTo(StopRuleChecker.MAX_CONSECUTIVE_ERRORS);
        assertThat(t.detail()).isEqualTo("3 requests in a row failed, the last with InternalServerError (limit 3)");
        assertThat(t.requestsEnded()).isEqualTo(24);
    }

    @Test
    void aSuccessResetsTheConsecutiveCount() {
        StopRuleChecker c = new StopRuleChecker(new StopRules(null, null, 3, false));
        int n = 0;
        for (int round = 0; round < 10; round++) {
            assertThat(c.ended(failed(n), ++n)).isNull();
            assertThat(c.ended(failed(n), ++n)).isNull();
            assertThat(c.ended(ok(n), ++n)).as("round %d: two failures then a success", round).isNull();
        }
        assertThat(c.ended(failed(n), ++n)).isNull();
        assertThat(c.ended(failed(n), ++n)).isNull();
        assertThat(c.ended(failed(n), ++n)).as("the third in a row").isNotNull();
    }

    @Test
    void noRuleNeverTrips() {
        StopRuleChecker c = new StopRuleChecker(StopRules.NONE);
        assertThat(c.active()).isFalse();
        for (int i = 0; i < 500; i++) {
            assertThat(c.ended(failed(i), i + 1)).isNull();
        }
        assertThat(c.serverWaiting(0, 1000, 500)).as("saturation is off").isNull();
    }

    @Test
    void saturationTripIsRecordedWithItsRule() {
        StopRuleChecker c = new StopRuleChecker(new StopRules(null, null, null, true));
        StopTrip t = null;
        for (int i = 0; i < SaturationDetector.WAITING_SCRAPES && t == null; i++) {
            t = c.serverWaiting(i * 1000 * MS, 4.0 * i, 7);
        }
        assertThat(t).as("waiting 0, 4, 8, 12, 16").isNotNull();
        assertThat(t.rule()).isEqualTo(StopRuleChecker.SATURATION);
        assertThat(t.toAvro().getAtMs()).isEqualTo(4000.0);
        assertThat(t.toAvro().getRequestsEnded()).isEqualTo(7);
    }
}
