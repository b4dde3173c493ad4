package io.capstream.schemas.registry;

import org.apache.avro.Schema;

/**
 * The subset of the Confluent Schema Registry REST API that capstream uses. Implementations:
 * {@link MockSchemaRegistry} ({@code mock://scope} URLs) and an HTTP client for real registries.
 *
 * <p>All methods throw {@link SchemaRegistryException} on failure; it names the subject, the HTTP
 * status and the registry's message where there is one. The subclass
 * {@link SchemaRegistryUnavailableException} means the registry gave no answer at all.
 */
public interface SchemaRegistryClient extends AutoCloseable {

    /**
     * Registers {@code schema} under {@code subject} (or finds it when already registered).
     *
     * @param subject subject name, e.g. {@code capstream.events-value}; never null
     * @param schema  the Avro schema; never null
     * @return the registry-wide schema id (positive)
     * @throws SchemaRegistryException when the registry refuses it (for example 409, incompatible)
     */
    int register(String subject, Schema schema);

    /**
     * Looks up the id of {@code schema} already registered under {@code subject}, without
     * registering it (Confluent {@code POST /subjects/{subject}}); used when
     * {@code auto.register.schemas=false}.
     *
     * @param subject subject name; never null
     * @param schema  the Avro schema; never null
     * @return the registry-wide schema id
     * @throws SchemaRegistryException 404 when the subject or the schema under it is unknown
     */
    int getId(String subject, Schema schema);

    /**
     * Looks up a schema by its registry-wide id.
     *
     * @param id schema id as read from the wire format
     * @return the schema; never null
     * @throws SchemaRegistryUnavailableException when the registry gave no answer (connection error,
     *                                            timeout, 5xx): the id may well exist
     * @throws SchemaRegistryException            when the registry answered that the id is unknown
     *                                            (404) or with something that is not an Avro schema
     */
    Schema getById(int id);

    /**
     * Tests {@code schema} against the latest version of {@code subject} under the subject's
     * compatibility level.
     *
     * @return true when compatible (also when the subject does not exist yet)
     */
    boolean testCompatibility(String subject, Schema schema);

    /**
     * Reads the compatibility level of {@code subject}, falling back to the global level.
     *
     * @param subject subject, or null for the global level
     * @return the level, e.g. {@code BACKWARD}
     */
    String getCompatibility(String subject);

    /**
     * Sets the compatibility level of {@code subject}.
     *
     * @param subject subject, or null for the global level
     * @param level   {@code NONE}, {@code BACKWARD}, {@code BACKWARD_TRANSITIVE}, {@code FORWARD}, ...
     */
    void setCompatibility(String subject, String level);

    /** Releases resources; the default does nothing. */
    @Override
    default void close() {
    }
}
