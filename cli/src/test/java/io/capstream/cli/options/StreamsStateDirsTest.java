package io.capstream.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Before: {@code aggregate} used Kafka Streams' default /tmp/kafka-streams, shared with every other program. */
class StreamsStateDirsTest {
    @TempDir
    Path tmp;

    @Test
    void theDefaultIsCapstreamsOwnUnderTheStateHomeElseTheHomeElseTheTempDirectory() {
        assertEquals(Path.of("/xdg/state/capstream/kafka-streams"),
                StreamsStateDirs.defaultDir(Map.of("XDG_STATE_HOME", "/xdg/state"), tmp.toString(), "/tmp", "ann"));
        assertEquals(tmp.resolve(".local/state/capstream/kafka-streams"),
                StreamsStateDirs.defaultDir(Map.of("XDG_STATE_HOME", "relative"), tmp.toString(), "/tmp", "ann"),
                "a relative XDG_STATE_HOME is ignored (XDG base directory spec)");
        assertEquals(Path.of("/tmp/capstream-ann/kafka-streams"),
                StreamsStateDirs.defaultDir(Map.of(), tmp.resolve("no-such-home").toString(), "/tmp", "ann"),
                "no home directory: a per-user directory under the temp directory");
        assertEquals(Path.of("/tmp/capstream-a_b/kafka-streams"),
                StreamsStateDirs.defaultDir(Map.of(), null, "/tmp", "a/b"), "the user name cannot leave the directory");
    }
}
