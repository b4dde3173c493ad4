package io.capstream.schemas.registry;

import java.io.IOException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link SchemaRegistryClientContract} for {@link HttpSchemaRegistryClient} over HTTP against
 * {@link OutageRegistry} (Confluent REST API over a fresh in-memory scope per test, never down here).
 * {@link #anotherClient()} is a new client each time, so its answers come from the registry, not
 * from a cache. OutageRegistry serves no {@code /config} or {@code /compatibility} endpoints, so the
 * compatibility cases are skipped here (HttpSchemaRegistryClientTest covers them with scripted answers).
 */
class HttpSchemaRegistryClientContractTest extends SchemaRegistryClientContract {
    private final String scope = "contract-http-" + UUID.randomUUID();
    private OutageRegistry registry;
    private HttpSchemaRegistryClient client;

    @BeforeEach
    void start() throws IOException {
        registry = new OutageRegistry(scope);
        client = HttpSchemaRegistryClient.create(registry.url(), RegistryClientConfig.defaults());
    }

    @AfterEach
    void stop() {
        registry.close();
        MockSchemaRegistry.dropScope(scope);
    }

    @Override
    protected SchemaRegistryClient client() {
        return client;
    }

    @Override
    protected SchemaRegistryClient anotherClient() {
        return HttpSchemaRegistryClient.create(registry.url(), RegistryClientConfig.defaults());
    }

    @Override
    protected boolean servesCompatibility() {
        return false;
    }
}
