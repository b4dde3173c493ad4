package io.capstream.cli.up;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.capstream.cli.stack.ApicurioConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Where {@code capstream up} keeps the registry's schemas (issue 11, item 2). */
class RegistryProcessTest {
    @Test
    void aKeptDataDirHoldsTheRegistryDatabase() {
        UpConfig cfg = new UpConfig(9092, 8081, Path.of("/var/lib/capstream"), 4, Duration.ofSeconds(90), null);
        ApicurioConfig c = RegistryProcess.config(cfg);
        assertEquals(Path.of("/var/lib/capstream/registry"), c.storageDir());
        assertEquals("jdbc:h2:file:/var/lib/capstream/registry/registry", c.jdbcUrl());
        assertEquals(8081, c.port());
        assertEquals(Duration.ofSeconds(90), c.startTimeout());
    }

    @Test
    void withoutADataDirTheRegistryIsInMemory() {
        ApicurioConfig c = RegistryProcess.config(new UpConfig(9092, 8081, null, 4, Duration.ofSeconds(90), null));
        assertNull(c.storageDir());
        assertNull(c.jdbcUrl(), "no JDBC URL: Apicurio's default in-memory H2 database");
    }
}
