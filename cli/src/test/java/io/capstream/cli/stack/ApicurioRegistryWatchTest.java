package io.capstream.cli.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The registry handle tells a child that died by itself ({@code kill -9}) from one it stopped; a
 * fake child ({@code sleep}) stands in for the registry.
 */
class ApicurioRegistryWatchTest {
    private static Process fakeChild() throws Exception {
        return new ProcessBuilder("sleep", "600").start();
    }

    @Test
    void aChildKilledFromOutsideIsAnUnexpectedExitWithItsCode() throws Exception {
        Process child = fakeChild();
        ApicurioRegistry registry = ApicurioRegistry.adopt(child, 8081);
        try {
            child.destroyForcibly(); // SIGKILL, as `kill -9`

            int code = registry.unexpectedExit().get(60, TimeUnit.SECONDS);

            assertEquals(137, code, "128 + SIGKILL");
        } finally {
            registry.close();
        }
    }

    @Test
    void aChildStoppedByCloseIsNotAnUnexpectedExit() throws Exception {
        Process child = fakeChild();
        ApicurioRegistry registry = ApicurioRegistry.adopt(child, 8081);

        registry.close();
        registry.exitHandled().get(60, TimeUnit.SECONDS);

        assertFalse(child.isAlive());
        assertFalse(registry.unexpectedExit().isDone(), "close() stopped it: " + registry.unexpectedExit());
    }
}
