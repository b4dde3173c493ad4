package io.capstream.cli.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.capstream.schemas.registry.HttpSchemaRegistryClient;
import io.capstream.schemas.registry.RegistryClientConfig;
import io.capstream.schemas.registry.SchemaRegistryClient;
import io.capstream.schemas.registry.SchemaRegistryClientContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link SchemaRegistryClientContract} for {@link HttpSchemaRegistryClient} against a REAL
 * Confluent-compatible registry: Apicurio Registry 2.6.13 ({@code /apis/ccompat/v7}) as a child
 * process, started once for the class (unpacked into target/apicurio by the build). Each test uses
 * subjects of its own, so the tests share the registry without seeing each other's schemas.
 *
 * <p>One difference from Confluent's registry and {@code MockSchemaRegistry} is a registry setting,
 * not a client bug: Apicurio's global compatibility level is {@code NONE} out of the box, not
 * {@code BACKWARD}; that case is replaced below by what Apicurio does.
 */
class ApicurioSchemaRegistryClientContractIT extends SchemaRegistryClientContract {
    private static ApicurioRegistry registry;

    private final String prefix = "contract-" + UUID.randomUUID() + ".";
    private final HttpSchemaRegistryClient client =
            HttpSchemaRegistryClient.create(registry.ccompatUrl(), RegistryClientConfig.defaults());

    @BeforeAll
    static void startRegistry() {
        String dir = System.getProperty("capstream.apicurio.dir");
        Path install = dir != null && Files.isRegularFile(Path.of(dir, ApicurioRegistry.RUNNER_JAR)) ? Path.of(dir) : null;
        registry = ApicurioRegistry.start(ApicurioConfig.defaults().withInstallDir(install)
                .withLogFile(Path.of("target", "apicurio-contract-it.log")));
    }

    @AfterAll
    static void stopRegistry() {
        if (registry != null) {
            registry.close();
        }
    }

    @Override
    protected SchemaRegistryClient client() {
        return client;
    }

    @Override
    protected SchemaRegistryClient anotherClient() {
        return HttpSchemaRegistryClient.create(registry.ccompatUrl(), RegistryClientConfig.defaults());
    }

    @Override
    protected String subject(String name) {
        return prefix + name;
    }

    /** Apicurio: the global level is NONE by default, and a subject without its own level reads it. */
    @Override
    @Test
    public void theDefaultLevelIsBackwardForTheRegistryAndForASubjectWithoutItsOwn() {
        client.register(subject("contract-value"), V1);
        assertEquals("NONE", client.getCompatibility(null));
        assertEquals("NONE", client.getCompatibility(subject("contract-value")));
    }
}
