package io.capstream.cli.commands;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When rerun says that the same prompts go to the endpoint that served the original (its prefix cache). */
class RerunSameEndpointTest {
    @Test
    void theSameEndpointIsFoundWithoutCredentialsOrATrailingSlash() {
        assertTrue(RerunCommand.sameEndpoint("http://u:pw@127.0.0.1:8000/v1/", "http://***@127.0.0.1:8000/v1"),
                "the recorded URL has its user-info masked");
        assertTrue(RerunCommand.sameEndpoint("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"));
        assertFalse(RerunCommand.sameEndpoint("http://127.0.0.1:8001/v1", "http://127.0.0.1:8000/v1"), "another port");
        assertFalse(RerunCommand.sameEndpoint("http://127.0.0.1:8000/v1", null), "nothing recorded");
    }
}
