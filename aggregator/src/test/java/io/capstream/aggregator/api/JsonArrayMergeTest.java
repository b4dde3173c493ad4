package io.capstream.aggregator.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Merging the range answers of several instances. */
class JsonArrayMergeTest {
    @Test
    void aLoneAnswerIsPassedOnUnchanged() {
        String local = "[{\"run_id\": \"a\"}]";
        assertSame(local, JsonArrayMerge.RUNS.merge(List.of(local)));
    }

    @Test
    void runsAreDeduplicatedAndNewestFirstWithTheirTextKept() {
        String local = "[{\"run_id\":\"b\",\"started_at\":\"2026-12-01T10:00:00Z\"},"
                + "{\"run_id\":\"a\",\"started_at\":null}]";
        String peer = "[ {\"run_id\": \"c\", \"started_at\": \"2026-12-01T11:00:00Z\"} ,"
                + "{\"run_id\":\"b\",\"started_at\":\"2026-12-01T10:00:00Z\",\"dup\":true}]";
        assertEquals("[{\"run_id\": \"c\", \"started_at\": \"2026-12-01T11:00:00Z\"},"
                + "{\"run_id\":\"b\",\"started_at\":\"2026-12-01T10:00:00Z\"},"
                + "{\"run_id\":\"a\",\"started_at\":null}]", JsonArrayMerge.RUNS.merge(List.of(local, peer)));
    }

    @Test
    void summariesAreSortedByWindowThenKey() {
        String a = "[{\"target\": \"t\", \"model\": \"m2\", \"context_bucket\": \"le4096\", \"window_start_ms\": 60000}]";
        String b = "[{\"target\": \"t\", \"model\": \"m1\", \"context_bucket\": \"le4096\", \"window_start_ms\": 60000},"
                + "{\"target\": \"t\", \"model\": \"m1\", \"context_bucket\": \"le4096\", \"window_start_ms\": 0}]";
        assertEquals("[{\"target\": \"t\", \"model\": \"m1\", \"context_bucket\": \"le4096\", \"window_start_ms\": 0},"
                + "{\"target\": \"t\", \"model\": \"m1\", \"context_bucket\": \"le4096\", \"window_start_ms\": 60000},"
                + "{\"target\": \"t\", \"model\": \"m2\", \"context_bucket\": \"le4096\", \"window_start_ms\": 60000}]",
                JsonArrayMerge.SUMMARIES.merge(List.of(a, b, "[]")));
    }

    @Test
    void alertsAreSortedByWindowThenDetection() {
        String a = "[{\"slo\": \"s\", \"window_start_ms\": 60000, \"detected_at_ms\": 121000, \"state\": \"BREACH\"}]";
        String b = "[{\"slo\": \"s\", \"window_start_ms\": 0, \"detected_at_ms\": 61000, \"state\": \"BREACH\"}]";
        assertEquals("[" + b.substring(1, b.length() - 1) + "," + a.substring(1, a.length() - 1) + "]",
                JsonArrayMerge.ALERTS.merge(List.of(a, b)));
    }

    @Test
    void refusesWhatIsNotAnArrayOfObjects() {
        assertThrows(IllegalArgumentException.class, () -> JsonArrayMerge.RUNS.merge(List.of("[]", "{\"error\":\"x\"}")));
        assertThrows(IllegalArgumentException.class, () -> JsonArrayMerge.RUNS.merge(List.of("[]", "[1]")));
        assertThrows(IllegalArgumentException.class, () -> JsonArrayMerge.RUNS.merge(List.of("[]", "[{")));
    }

    private static String burnAlert(String rule, String severity) {
        return "{\"target\": \"t\", \"model\": \"m\", \"context_bucket\": \"le4096\", \"slo\": \"99% of requests\","
                + " \"metric\": \"burn_rate\", \"state\": \"BREACH\", \"window_start_ms\": 60000,"
                + " \"detected_at_ms\": 121000, \"rule\": \"" + rule + "\", \"severity\": \"" + severity + "\"}";
    }

    @Test
    void twoBurnRateRulesFiringAtOnceForOneSeriesStayTwoAlerts() {
        String page = burnAlert("page-1h-5m", "page");
        String ticket = burnAlert("ticket-3d-6h", "ticket");
        String local = "[" + page + "," + ticket + "]";
        String peer = "[" + ticket + "]"; // the same alert once more from another instance
        assertThat(JsonArrayMerge.ALERTS.merge(List.of(local, peer))).as("merged /api/alerts")
                .isEqualTo("[" + page + "," + ticket + "]");
        assertThat(JsonArrayMerge.ACTIVE_BREACHES.merge(List.of("[" + ticket + "]", "[" + page + "]")))
                .as("merged /api/alerts?active=true").isEqualTo("[" + page + "," + ticket + "]");
    }
}
