package io.capstream.aggregator.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RegistryHealthTest {
    @Test
    void unreachableUntilEveryReporterThatSawTheOutageHeardAnAnswer() {
        RegistryHealth h = new RegistryHealth();
        assertNull(h.problem());
        h.unreachable("task 0_0", "GET /schemas/ids/3 failed: ConnectException");
        h.unreachable("task 0_1", "GET /schemas/ids/3 failed: ConnectException");
        assertEquals("schema registry unreachable: GET /schemas/ids/3 failed: ConnectException", h.problem());
        h.answered("task 0_0");
        assertFalse(h.reachable(), "task 0_1 still waits");
        h.answered("task 0_2"); // never had an outage: nothing changes
        assertFalse(h.reachable());
        h.answered("task 0_1");
        assertTrue(h.reachable());
        assertNull(h.problem());
    }
}
