package io.capstream.aggregator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.capstream.aggregator.events.RegistryHealth;
import io.capstream.aggregator.events.RegistryRetry;
import io.capstream.aggregator.report.calc.RunSloParser;
import io.capstream.aggregator.slo.ReportSlos;
import io.capstream.schemas.registry.RegistryClientConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReportTopologyConfigSloTest {
    @Test
    void theSloParserIsOffByDefaultAndKeptByEveryCopy() {
        ReportTopologyConfig plain = ReportTopologyConfig.defaults("mock://x");
        assertNull(plain.sloParser());
        RunSloParser parser = ReportSlos::parse;
        ReportTopologyConfig c = plain.withSloParser(parser).withIncompleteDeadline(Duration.ofSeconds(3))
                .withRegistryClient(RegistryClientConfig.defaults()).withRegistryRetry(RegistryRetry.defaults())
                .withRegistryHealth(new RegistryHealth());
        assertSame(parser, c.sloParser());
        assertEquals(Duration.ofSeconds(3), c.incompleteDeadline());
        assertEquals("ttft_p95_ms", c.sloParser().parse("ttft_p95_ms<=300").metric());
    }
}
