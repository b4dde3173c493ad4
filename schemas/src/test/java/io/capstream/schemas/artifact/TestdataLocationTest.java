package io.capstream.schemas.artifact;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The corpus the tests read is part of this repository (issue 11, item 10): a fresh clone has no
 * shared folder beside it, and {@code mvn -B verify} must pass there.
 */
class TestdataLocationTest {
    @Test
    void theCorpusIsReadFromInsideTheRepository() {
        Path repository = Path.of("").toAbsolutePath().getParent(); // surefire runs in the module's directory
        Path dir = ArtifactJsonTest.shared().toAbsolutePath().normalize();
        assertTrue(dir.startsWith(repository), dir + " is outside the repository " + repository);
        assertTrue(Files.isRegularFile(dir.resolve("corpus/seed-example.json")), dir.toString());
        assertTrue(Files.isDirectory(dir.resolve("corpus/anvil/with-timings")), dir.toString());
    }
}
