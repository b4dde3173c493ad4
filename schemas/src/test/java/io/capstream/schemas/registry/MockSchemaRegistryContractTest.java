package io.capstream.schemas.registry;

import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link SchemaRegistryClientContract} for {@link MockSchemaRegistry}, as production gets it from a
 * {@code mock://} URL: one new scope per test; clients of one scope share one registry (there is no
 * client-side cache to bypass).
 */
class MockSchemaRegistryContractTest extends SchemaRegistryClientContract {
    private final String scope = "contract-" + UUID.randomUUID();
    private final SchemaRegistryClient client =
            SchemaRegistryClients.forUrl(SchemaRegistryClients.MOCK_PREFIX + scope, RegistryClientConfig.defaults());

    @AfterEach
    void dropScope() {
        MockSchemaRegistry.dropScope(scope);
    }

    @Override
    protected SchemaRegistryClient client() {
        return client;
    }

    @Override
    protected SchemaRegistryClient anotherClient() {
        return SchemaRegistryClients.forUrl(SchemaRegistryClients.MOCK_PREFIX + scope, RegistryClientConfig.defaults());
    }
}
