package io.capstream.schemas.registry;

/**
 * Creates a {@link SchemaRegistryClient} for a URL: {@code mock://<scope>} selects the in-memory
 * registry of that scope; {@code http(s)://...} a REST client for a Confluent-compatible registry.
 */
public final class SchemaRegistryClients {
    /** URL scheme prefix of the in-memory registry. */
    public static final String MOCK_PREFIX = "mock://";

    private SchemaRegistryClients() {
    }

    /**
     * @param url    registry URL; never null
     * @param config client settings (timeouts, retries, credentials)
     * @return a client for that URL
     * @throws IllegalArgumentException for an unsupported URL
     */
    public static SchemaRegistryClient forUrl(String url, RegistryClientConfig config) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("schema registry URL is empty");
        }
        if (url.startsWith(MOCK_PREFIX)) {
            return MockSchemaRegistry.forScope(url.substring(MOCK_PREFIX.length()));
        }
        if (url.startsWith("http://") || url.startsWith("https://")) {
            return HttpSchemaRegistryClient.create(url, config);
        }
        throw new IllegalArgumentException("unsupported schema registry URL '" + url
                + "': expected mock://<scope>, http://host:port/... or https://...");
    }
}
