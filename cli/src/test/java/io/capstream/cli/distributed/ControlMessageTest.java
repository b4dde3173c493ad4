package io.capstream.cli.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ControlMessageTest {
    @Test
    void messagesRoundTripAndProbesAreNoMessages() {
        for (ControlMessage m : List.of(ControlMessage.plan("r1"), ControlMessage.stop("r1", "interrupted"),
                ControlMessage.refused("r1", 1, "w\"1", "its start instant passed 58 s ago"),
                ControlMessage.tripped("r1", 2, "w3", "max_error_rate", "30 of the last 50 requests failed"),
                ControlMessage.stopForRule("r1", "max_error_rate", "worker w3 (share 2) tripped stop rule"))) {
            assertEquals(m, ControlMessage.parse(m.toBytes()), new String(m.toBytes(), StandardCharsets.UTF_8));
        }
        org.assertj.core.api.Assertions.assertThat(ControlMessage.stop("r1", "interrupted").rule())
                .as("a stop without a rule is an interruption").isNull();
        org.assertj.core.api.Assertions.assertThat(new String(ControlMessage.stopForRule("r1", "saturation", "why")
                .toBytes(), StandardCharsets.UTF_8)).isEqualTo(
                "{\"type\":\"stop\",\"run_id\":\"r1\",\"reason\":\"why\",\"rule\":\"saturation\"}");
        assertNull(ControlMessage.parse(new byte[0]), "a clock probe");
        assertNull(ControlMessage.parse(null), "a tombstone");
        assertNull(ControlMessage.parse("{\"type\":1}".getBytes(StandardCharsets.UTF_8)), "no run id");
        assertNull(ControlMessage.parse(new byte[] {(byte) 0xff, 0x01}), "not JSON");
    }

    @Test
    void planTopicsWithoutARecentPlanMessageAreStale() {
        Set<String> topics = Set.of("capstream.events", "capstream.plan.old", "capstream.plan.live",
                "capstream.plan.gone", "capstream.control");
        assertEquals(List.of("capstream.plan.gone", "capstream.plan.old"),
                PlanCleanup.stale(topics, Set.of("live", "elsewhere")));
        assertEquals(List.of(), PlanCleanup.stale(Set.of("capstream.events"), Set.of()));
    }
}
