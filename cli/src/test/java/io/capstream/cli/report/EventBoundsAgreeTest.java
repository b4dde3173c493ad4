package io.capstream.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.capstream.aggregator.events.EventBounds;
import io.capstream.aggregator.report.ReportChunks;
import io.capstream.aggregator.runtime.StreamsSettings;
import io.capstream.cli.embedded.TopicSetup;
import io.capstream.loadgen.run.RunConfig;
import org.junit.jupiter.api.Test;

/** The limits of the modules agree: what a generator may plan, what the aggregator accepts, what a topic takes. */
class EventBoundsAgreeTest {
    @Test
    void theAggregatorAcceptsEveryRunTheGeneratorCanPlan() {
        assertEquals(RunConfig.MAX_REQUESTS, EventBounds.MAX_REQUESTS);
    }

    @Test
    void everyReportRecordFitsTheReportTopicsAndTheProducer() {
        assertTrue(ReportChunks.MAX_RECORD_BYTES < TopicSetup.REPORT_MAX_MESSAGE_BYTES - 4096);
        assertTrue(ReportChunks.MAX_RECORD_BYTES < StreamsSettings.MAX_RECORD_BYTES - 4096);
        assertTrue(ReportChunks.CHUNK_BYTES + 4096 < ReportChunks.MAX_RECORD_BYTES);
        assertTrue(EventBounds.MAX_EVENT_BYTES < StreamsSettings.MAX_RECORD_BYTES - 4096,
                "an event fits the report topology's changelog");
    }
}
