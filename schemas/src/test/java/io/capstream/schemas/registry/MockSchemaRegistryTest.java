package io.capstream.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MockSchemaRegistryTest {
    private static final String A = "mock-test-a";
    private static final String B = "mock-test-b";

    private static final Schema V1 = SchemaBuilder.record("Thing").namespace("t").fields()
            .requiredString("id").endRecord();
    private static final Schema V2_OPTIONAL = SchemaBuilder.record("Thing").namespace("t").fields()
            .requiredString("id").name("size").type().longType().longDefault(0).endRecord();
    private static final Schema V2_REQUIRED = SchemaBuilder.record("Thing").namespace("t").fields()
            .requiredString("id").requiredLong("size").endRecord();

    @AfterEach
    void drop() {
        MockSchemaRegistry.dropScope(A);
        MockSchemaRegistry.dropScope(B);
    }

    @Test
    void sameScopeIsSharedOtherScopesAreNot() {
        SchemaRegistryClient a1 = SchemaRegistryClients.forUrl("mock://" + A, RegistryClientConfig.defaults());
        SchemaRegistryClient a2 = SchemaRegistryClients.forUrl("mock://" + A, RegistryClientConfig.defaults());
        SchemaRegistryClient b = SchemaRegistryClients.forUrl("mock://" + B, RegistryClientConfig.defaults());
        assertSame(a1, a2);
        assertNotSame(a1, b);
        int id = a1.register("s-value", V1);
        assertEquals(V1, a2.getById(id));
        assertEquals(id, a2.getId("s-value", V1));
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> b.getById(id));
        assertEquals(404, e.status());
        assertEquals(40401, assertThrows(SchemaRegistryException.class, () -> b.getId("s-value", V1)).errorCode());
    }

    @Test
    void registeringTwiceGivesTheSameId() {
        MockSchemaRegistry r = MockSchemaRegistry.forScope(A);
        assertEquals(r.register("s", V1), r.register("s", V1));
    }

    @Test
    void backwardIsTheDefaultAndRefusesANewRequiredField() {
        MockSchemaRegistry r = MockSchemaRegistry.forScope(A);
        assertEquals("BACKWARD", r.getCompatibility(null));
        assertEquals("BACKWARD", r.getCompatibility("s"));
        int v1 = r.register("s", V1);
        assertTrue(r.testCompatibility("s", V2_OPTIONAL));
        assertFalse(r.testCompatibility("s", V2_REQUIRED));
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> r.register("s", V2_REQUIRED));
        assertEquals(409, e.status());
        assertThat(e.getMessage()).contains("\"s\"");
        int v2 = r.register("s", V2_OPTIONAL);
        assertTrue(v2 != v1);
        assertEquals(404, assertThrows(SchemaRegistryException.class, () -> r.getId("s", V2_REQUIRED)).status());
    }

    @Test
    void compatibilityCanBeRelaxedPerSubject() {
        MockSchemaRegistry r = MockSchemaRegistry.forScope(A);
        r.register("s", V1);
        r.register("other", V1);
        r.setCompatibility("s", "NONE");
        assertEquals("NONE", r.getCompatibility("s"));
        assertEquals("BACKWARD", r.getCompatibility("other"));
        assertTrue(r.register("s", V2_REQUIRED) > 0);
        assertThrows(SchemaRegistryException.class, () -> r.register("other", V2_REQUIRED));
        r.setCompatibility(null, "NONE");
        assertEquals("NONE", r.getCompatibility("other"));
    }
}
