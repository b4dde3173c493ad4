package io.capstream.aggregator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Before: {@code aggregate} joined its consumer group as a dynamic member, so an instance restarted after
 * {@code kill -9} on the same state directory got no partition until the dead member's session timeout (45 s).
 */
class StaticMembershipTest {
    @TempDir
    Path tmp;

    @Test
    void theSameStateDirectoryAndApplicationKeepOneIdAcrossRestarts() throws Exception {
        Map<String, String> first = StaticMembership.properties(tmp, "capstream-aggregator", Map.of());
        assertThat(first).as("properties of a new state directory").containsOnlyKeys(
                "main.consumer.group.instance.id");
        String id = first.get("main.consumer.group.instance.id");
        assertThat(id).as("the id").matches("capstream-[0-9a-f-]{36}");
        assertThat(Files.readString(tmp.resolve("capstream-aggregator").resolve(StaticMembership.FILE)).trim())
                .as("the id file in <state dir>/<application id>").isEqualTo(id);
        assertThat(StaticMembership.properties(tmp, "capstream-aggregator", Map.of()))
                .as("a restart on the same directory").containsEntry("main.consumer.group.instance.id", id);
        assertThat(StaticMembership.properties(tmp, "other-app", Map.of()).get("main.consumer.group.instance.id"))
                .as("another application id in the same directory").isNotEqualTo(id);
        assertThat(StaticMembership.properties(tmp.resolve("second"), "capstream-aggregator", Map.of())
                .get("main.consumer.group.instance.id")).as("another state directory (another instance)")
                .isNotEqualTo(id);
    }

    @Test
    void aDamagedIdFileIsReplacedAndAnUnwritableDirectoryLeavesTheMembershipDynamic() throws Exception {
        Path file = tmp.resolve("app").resolve(StaticMembership.FILE);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "not an id\n");
        String id = StaticMembership.properties(tmp, "app", Map.of()).get("main.consumer.group.instance.id");
        assertThat(id).as("the id written over a damaged file").matches("capstream-[0-9a-f-]{36}");
        assertThat(Files.readString(file).trim()).as("the file now").isEqualTo(id);

        Path notADirectory = Files.writeString(tmp.resolve("plain-file"), "x");
        assertThat(StaticMembership.properties(notADirectory, "app", Map.of()))
                .as("a state directory that is a file: Kafka Streams reports it, no static id").isEmpty();
    }

    @Test
    void aGroupInstanceIdTheUserGivesWins() {
        for (String key : new String[] {"group.instance.id", "consumer.group.instance.id",
                "main.consumer.group.instance.id"}) {
            assertThat(StaticMembership.properties(tmp, "app", Map.of(key, "mine")))
                    .as("with the user's %s", key).isEmpty();
        }
    }
}
