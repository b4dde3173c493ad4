package io.capstream.cli.report;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the repository's testdata/ (system property {@code capstream.testdata.dir}, set by the parent pom). */
public final class SharedDir {
    private SharedDir() {
    }

    public static Path get() {
        String prop = System.getProperty("capstream.testdata.dir");
        Path p = prop != null ? Path.of(prop) : Path.of("..", "testdata");
        if (!Files.isDirectory(p)) {
            p = Path.of("testdata");
        }
        return p.toAbsolutePath().normalize();
    }

    public static Path seed() {
        return get().resolve("corpus/seed-example.json");
    }

    public static Path withTimings() {
        return get().resolve("corpus/anvil/with-timings");
    }
}
