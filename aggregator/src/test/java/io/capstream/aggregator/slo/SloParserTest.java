package io.capstream.aggregator.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.window.Quantity;
import io.capstream.aggregator.window.RequestSample;
import org.junit.jupiter.api.Test;

class SloParserTest {
    @Test
    void parsesPercentileSlos() {
        Slo s = SloParser.parse("ttft_p95_ms<=500");
        assertEquals("ttft_p95_ms", s.metric());
        assertEquals(Quantity.TTFT, s.quantity());
        assertEquals(95, s.percentile());
        assertEquals(Comparison.LE, s.comparison());
        assertEquals(500.0, s.threshold());
        assertTrue(s.perRequest());

        Slo d = SloParser.parse(" decode_p50_tok_s >= 20.5 ");
        assertEquals(Quantity.DECODE, d.quantity());
        assertEquals(50, d.percentile());
        assertEquals(Comparison.GE, d.comparison());
        assertEquals(20.5, d.threshold());
        assertEquals("decode_p50_tok_s >= 20.5", d.text());
    }

    @Test
    void parsesWindowSlos() {
        Slo e = SloParser.parse("error_rate<0.01");
        assertEquals(Slo.ERROR_RATE, e.metric());
        assertNull(e.quantity());
        assertEquals(Comparison.LT, e.comparison());
        assertFalse(e.perRequest());
        assertEquals(Comparison.GT, SloParser.parse("goodput>0.9").comparison());
        assertEquals(100.0, SloParser.parse("output_throughput_tok_s>=100").threshold());
    }

    @Test
    void rejectsBadInputWithClearMessages() {
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("")).getMessage()).contains("empty");
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("ttft_p95_ms=500")).getMessage()).contains("op one of");
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("ttft_p95_ms<=fast")).getMessage()).contains("not a number");
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("ttft_p90_ms<=500")).getMessage()).contains("p50, p95 or p99");
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("ttft_p95_tok_s<=500")).getMessage()).contains("ttft_p95_ms");
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("latency_p95_ms<=500")).getMessage()).contains("unknown quantity");
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("error_rate<=5")).getMessage()).contains("between 0 and 1");
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("ttft_p95_ms<=-1")).getMessage()).contains(">= 0");
        assertThat(assertThrows(SloParseException.class, () -> SloParser.parse("speed<=1")).getMessage()).contains("unknown metric");
    }

    @Test
    void perRequestCheck() {
        Slo ttft = SloParser.parse("ttft_p95_ms<=500");
        Slo itl = SloParser.parse("itl_p99_ms<=50");
        RequestSample fast = new RequestSample(100, 100, 400, 20.0, 50.0, 1000.0, 10L, 10);
        RequestSample slow = new RequestSample(900, 900, 1400, null, null, null, 10L, 10);
        assertTrue(ttft.metBy(fast));
        assertFalse(ttft.metBy(slow));
        assertTrue(itl.metBy(slow), "a request without ITL is not held against the ITL SLO");
    }
}
