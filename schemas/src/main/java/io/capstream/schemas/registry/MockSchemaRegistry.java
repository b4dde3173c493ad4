package io.capstream.schemas.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * In-memory schema registry selected by {@code mock://<scope>} URLs, shared by every client of the
 * same scope within the JVM (as Confluent's own serdes do). Default compatibility is BACKWARD,
 * checked with Avro's {@link SchemaCompatibility} against the latest version.
 */
public final class MockSchemaRegistry implements SchemaRegistryClient {
    private static final Map<String, MockSchemaRegistry> SCOPES = new ConcurrentHashMap<>();

    private final Map<Integer, Schema> byId = new HashMap<>();
    private final Map<Schema, Integer> idBySchema = new HashMap<>();
    private final Map<String, List<Schema>> versions = new HashMap<>();
    private final Map<String, String> compatibility = new HashMap<>();
    private String globalCompatibility = "BACKWARD";
    private int nextId = 1;

    private MockSchemaRegistry() {
    }

    /**
     * Returns the registry of a scope, creating it on first use.
     *
     * @param scope the part after {@code mock://}; never null
     * @return the shared registry of that scope
     */
    public static MockSchemaRegistry forScope(String scope) {
        return SCOPES.computeIfAbsent(scope, s -> new MockSchemaRegistry());
    }

    /**
     * Drops a scope (tests use this to start from an empty registry).
     *
     * @param scope the scope name
     */
    public static void dropScope(String scope) {
        SCOPES.remove(scope);
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        List<Schema> list = versions.computeIfAbsent(subject, s -> new ArrayList<>());
        Integer existing = idBySchema.get(schema);
        if (existing != null && list.contains(schema)) {
            return existing;
        }
        if (!list.isEmpty() && !compatible(subject, schema)) {
            throw new SchemaRegistryException("Schema being registered is incompatible with an earlier schema for subject \""
                    + subject + "\" (compatibility " + levelOf(subject) + ")", 409, 409, null);
        }
        int id = existing != null ? existing : nextId++;
        byId.put(id, schema);
        idBySchema.put(schema, id);
        list.add(schema);
        return id;
    }

    @Override
    public synchronized int getId(String subject, Schema schema) {
        List<Schema> list = versions.get(subject);
        if (list == null || list.isEmpty()) {
            throw new SchemaRegistryException("Subject '" + subject + "' not found", 404, 40401, null);
        }
        if (!list.contains(schema)) {
            throw new SchemaRegistryException("Schema not found under subject '" + subject + "'", 404, 40403, null);
        }
        return idBySchema.get(schema);
    }

    @Override
    public synchronized Schema getById(int id) {
        Schema s = byId.get(id);
        if (s == null) {
            throw new SchemaRegistryException("Schema " + id + " not found", 404, 40403, null);
        }
        return s;
    }

    @Override
    public synchronized boolean testCompatibility(String subject, Schema schema) {
        List<Schema> list = versions.get(subject);
        return list == null || list.isEmpty() || compatible(subject, schema);
    }

    @Override
    public synchronized String getCompatibility(String subject) {
        return levelOf(subject);
    }

    @Override
    public synchronized void setCompatibility(String subject, String level) {
        if (subject == null) {
            globalCompatibility = level;
        } else {
            compatibility.put(subject, level);
        }
    }

    private String levelOf(String subject) {
        return subject == null ? globalCompatibility : compatibility.getOrDefault(subject, globalCompatibility);
    }

    private boolean compatible(String subject, Schema candidate) {
        String level = levelOf(subject);
        List<Schema> list = versions.get(subject);
        if ("NONE".equals(level) || list == null || list.isEmpty()) {
            return true;
        }
        boolean transitive = level.endsWith("_TRANSITIVE");
        List<Schema> against = transitive ? list : List.of(list.get(list.size() - 1));
        for (Schema old : against) {
            boolean backward = SchemaCompatibility.checkReaderWriterCompatibility(candidate, old).getType()
                    == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
            boolean forward = SchemaCompatibility.checkReaderWriterCompatibility(old, candidate).getType()
                    == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
            boolean ok = switch (level.replace("_TRANSITIVE", "")) {
                case "BACKWARD" -> backward;
                case "FORWARD" -> forward;
                case "FULL" -> backward && forward;
                default -> true;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
