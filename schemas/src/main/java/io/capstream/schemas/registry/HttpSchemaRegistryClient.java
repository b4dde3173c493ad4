package io.capstream.schemas.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * REST client for a Confluent-compatible schema registry (Confluent Schema Registry, Apicurio's
 * {@code /apis/ccompat/v7}, Karapace, Redpanda). Endpoints used:
 * <ul>
 *   <li>{@code POST /subjects/{s}/versions} - register ({@link #register})</li>
 *   <li>{@code POST /subjects/{s}} - look up the id of an already registered schema ({@link #getId})</li>
 *   <li>{@code GET /schemas/ids/{id}} - schema by id ({@link #getById})</li>
 *   <li>{@code GET /subjects} - subject names ({@link #subjects}, e.g. to check the registry answers)</li>
 *   <li>{@code POST /compatibility/subjects/{s}/versions/latest} - compatibility test</li>
 *   <li>{@code GET/PUT /config/{s}} and {@code GET/PUT /config} - compatibility level</li>
 * </ul>
 * Successful lookups are cached for the life of the client (id to schema, subject + schema to id):
 * ids are immutable in a schema registry. Transport details (timeouts, retries, auth, errors): see
 * {@link RegistryTransport}. Thread-safe.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {
    /** Confluent error code: subject not found. */
    static final int SUBJECT_NOT_FOUND = 40401;
    /** Confluent error code: version not found. */
    static final int VERSION_NOT_FOUND = 40402;
    /** Confluent error code: subject has no subject-level compatibility configured. */
    static final int SUBJECT_CONFIG_NOT_FOUND = 40408;

    private final RegistryTransport transport;
    private final Map<Integer, Schema> schemaById = new ConcurrentHashMap<>();
    private final Map<String, Map<Schema, Integer>> idBySubjectSchema = new ConcurrentHashMap<>();

    private HttpSchemaRegistryClient(RegistryTransport transport) {
        this.transport = transport;
    }

    /**
     * @param url    one or more comma-separated {@code http(s)://} base URLs, e.g.
     *               {@code http://127.0.0.1:8081} or {@code http://host:8080/apis/ccompat/v7};
     *               userinfo ({@code user:pass@}) is used for basic auth when the config has none
     * @param config timeouts, retries and credentials; never null
     * @return the client
     * @throws IllegalArgumentException for a malformed URL
     */
    public static HttpSchemaRegistryClient create(String url, RegistryClientConfig config) {
        return new HttpSchemaRegistryClient(new RegistryTransport(url, Objects.requireNonNull(config, "config")));
    }

    @Override
    public int register(String subject, Schema schema) {
        Integer cached = cachedId(subject, schema);
        if (cached != null) {
            return cached;
        }
        JsonNode response;
        try {
            response = transport.send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(schema), subject);
        } catch (SchemaRegistryException e) {
            if (e.status() != 409) {
                throw e;
            }
            // two clients registering a subject's first version at once: Apicurio refuses the later one with 409
            // "An artifact with ID ... already exists" although the schema is then registered (two generators
            // started together on a fresh registry: one failed). Its id is looked up; a schema that is really
            // incompatible is not registered, so the lookup fails and the 409 stands.
            try {
                return getId(subject, schema);
            } catch (SchemaRegistryException lookup) {
                e.addSuppressed(lookup);
                throw e;
            }
        }
        int id = requireId(response, subject);
        remember(subject, schema, id);
        return id;
    }

    @Override
    public int getId(String subject, Schema schema) {
        Integer cached = cachedId(subject, schema);
        if (cached != null) {
            return cached;
        }
        JsonNode response = transport.send("POST", "/subjects/" + encode(subject), schemaBody(schema), subject);
        int id = requireId(response, subject);
        remember(subject, schema, id);
        return id;
    }

    @Override
    public Schema getById(int id) {
        Schema cached = schemaById.get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode response = transport.send("GET", "/schemas/ids/" + id, null, null);
        String text = response.path("schema").asText(null);
        if (text == null) {
            throw new SchemaRegistryException("schema registry " + transport.describe() + " returned no schema for id " + id, 200, null);
        }
        String type = response.path("schemaType").asText("AVRO");
        if (!"AVRO".equalsIgnoreCase(type)) {
            throw new SchemaRegistryException("schema id " + id + " is a " + type + " schema, not AVRO", 200, null);
        }
        Schema schema;
        try {
            schema = new Schema.Parser().parse(text);
        } catch (SchemaParseException e) {
            throw new SchemaRegistryException("schema id " + id + " is not a valid Avro schema: " + e.getMessage(), 200, e);
        }
        Schema previous = schemaById.putIfAbsent(id, schema);
        return previous != null ? previous : schema;
    }

    /**
     * Lists the registered subjects ({@code GET /subjects}); never cached.
     *
     * @return the subject names, in the registry's order; never null
     * @throws SchemaRegistryUnavailableException when the registry gave no answer (connection error,
     *                                            timeout, 5xx)
     * @throws SchemaRegistryException            on a 4xx answer (e.g. 401 without valid credentials, 404
     *                                            when the URL is not a registry's API) or an answer that
     *                                            is not a JSON array
     */
    public List<String> subjects() {
        JsonNode response = transport.send("GET", "/subjects", null, null);
        if (!response.isArray()) {
            throw new SchemaRegistryException("schema registry " + transport.describe()
                    + " answered GET /subjects with something that is not a JSON array: " + abbreviate(response.toString()), 200, null);
        }
        List<String> out = new ArrayList<>();
        response.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    @Override
    public boolean testCompatibility(String subject, Schema schema) {
        try {
            JsonNode response = transport.send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest",
                    schemaBody(schema), subject);
            if (!response.has("is_compatible")) {
                throw new SchemaRegistryException("schema registry compatibility answer for subject '" + subject
                        + "' has no is_compatible field: " + response, 200, null);
            }
            return response.get("is_compatible").asBoolean();
        } catch (SchemaRegistryException e) {
            if (e.status() == 404 && (e.errorCode() == SUBJECT_NOT_FOUND || e.errorCode() == VERSION_NOT_FOUND || e.errorCode() < 0)) {
                return true; // nothing registered yet: anything is compatible
            }
            throw e;
        }
    }

    @Override
    public String getCompatibility(String subject) {
        if (subject == null) {
            return level(transport.send("GET", "/config", null, null), null);
        }
        try {
            return level(transport.send("GET", "/config/" + encode(subject) + "?defaultToGlobal=true", null, subject), subject);
        } catch (SchemaRegistryException e) {
            if (e.status() == 404) {
                return getCompatibility(null); // registries without defaultToGlobal: no subject-level setting
            }
            throw e;
        }
    }

    @Override
    public void setCompatibility(String subject, String level) {
        Objects.requireNonNull(level, "level");
        ObjectNode body = transport.json().createObjectNode().put("compatibility", level);
        String path = subject == null ? "/config" : "/config/" + encode(subject);
        transport.send("PUT", path, body, subject);
    }

    private String level(JsonNode response, String subject) {
        String level = response.path("compatibilityLevel").asText(null);
        if (level == null) {
            level = response.path("compatibility").asText(null);
        }
        if (level == null) {
            throw new SchemaRegistryException("schema registry config answer" + (subject == null ? "" : " for subject '" + subject + "'")
                    + " has no compatibility level: " + response, 200, null);
        }
        return level;
    }

    private ObjectNode schemaBody(Schema schema) {
        return transport.json().createObjectNode().put("schema", schema.toString());
    }

    private int requireId(JsonNode response, String subject) {
        JsonNode id = response.get("id");
        if (id == null || !id.canConvertToInt()) {
            throw new SchemaRegistryException("schema registry answer for subject '" + subject + "' has no schema id: " + response, 200, null);
        }
        return id.asInt();
    }

    private Integer cachedId(String subject, Schema schema) {
        Map<Schema, Integer> ids = idBySubjectSchema.get(subject);
        return ids == null ? null : ids.get(schema);
    }

    private void remember(String subject, Schema schema, int id) {
        idBySubjectSchema.computeIfAbsent(subject, s -> new ConcurrentHashMap<>()).put(schema, id);
        schemaById.putIfAbsent(id, schema);
    }

    /** Percent-encodes a subject for use as one path segment. */
    static String encode(String subject) {
        Objects.requireNonNull(subject, "subject");
        return URLEncoder.encode(subject, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Override
    public String toString() {
        return "HttpSchemaRegistryClient" + transport.describe();
    }
}
