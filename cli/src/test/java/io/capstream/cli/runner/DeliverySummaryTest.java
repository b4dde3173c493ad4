package io.capstream.cli.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What {@code generate} and {@code run} say about the events at the end (issue 11, item 6). */
class DeliverySummaryTest {
    @Test
    void saysWhatWasDeliveredNotThatEverythingWasSent() {
        // used to print "events sent to Kafka" even with 77 of 302 undelivered
        assertEquals("302 events, 225 delivered, 77 undelivered", RunDriver.deliverySummary(302, 77));
        assertEquals("5 events, 5 delivered, 0 undelivered", RunDriver.deliverySummary(5, 0));
        assertEquals("1 event, 0 delivered, 1 undelivered", RunDriver.deliverySummary(1, 1));
        assertEquals("3 events, 0 delivered, 3 undelivered", RunDriver.deliverySummary(3, 7),
                "never a negative count");
    }
}
