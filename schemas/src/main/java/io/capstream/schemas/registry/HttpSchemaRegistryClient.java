package io.capstream.schemas.registry;

import org.apache.avro.Schema;

/**
 * REST client for a Confluent-compatible schema registry. PLACEHOLDER: the real client (caching,
 * timeouts, retries, auth) is delivered by the foundation work (issue 2).
 */
final class HttpSchemaRegistryClient implements SchemaRegistryClient {
    private HttpSchemaRegistryClient() {
    }

    static SchemaRegistryClient create(String url, RegistryClientConfig config) {
        throw new UnsupportedOperationException("HTTP schema registry client not implemented yet");
    }

    @Override
    public int register(String subject, Schema schema) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Schema getById(int id) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean testCompatibility(String subject, Schema schema) {
        throw new UnsupportedOperationException();
    }

    @Override
    public String getCompatibility(String subject) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setCompatibility(String subject, String level) {
        throw new UnsupportedOperationException();
    }
}
