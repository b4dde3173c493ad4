package io.capstream.schemas.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SchemaRegistryClient} promises (see its Javadoc; semantics of the Confluent REST
 * API), run against each implementation by a subclass: register and look up by id and by subject,
 * the same schema gets the same registry-wide id, unknown subjects, schemas and ids are the
 * documented 404 {@link SchemaRegistryException} (never {@link SchemaRegistryUnavailableException}),
 * and the compatibility level (BACKWARD by default, as in Confluent's registry; the other cases set
 * the subject's level they need) decides what may be registered.
 *
 * <p>A subclass gives clients of a registry that is new and empty for each test (JUnit makes a new
 * instance per test), or per-test subjects through {@link #subject(String)}. Schemas are compared by
 * their Avro parsing fingerprint, so a registry may return an equivalent text. The cases are public
 * so that a subclass in another module (cli's Apicurio IT) can replace one.
 */
public abstract class SchemaRegistryClientContract {
    /** A record with one int field. */
    protected static final Schema V1 = SchemaBuilder.record("Thing").namespace("io.capstream.contract").fields()
            .requiredInt("a").endRecord();
    /** V1 plus a string with a default: BACKWARD compatible with V1. */
    protected static final Schema V2_WITH_DEFAULT = SchemaBuilder.record("Thing").namespace("io.capstream.contract").fields()
            .requiredInt("a").name("b").type().stringType().stringDefault("x").endRecord();
    /** V1 plus an int without a default: not BACKWARD compatible with V1 (old data has no c). */
    protected static final Schema V2_REQUIRED = SchemaBuilder.record("Thing").namespace("io.capstream.contract").fields()
            .requiredInt("a").requiredInt("c").endRecord();
    /** An unrelated record. */
    protected static final Schema OTHER = SchemaBuilder.record("Other").namespace("io.capstream.contract").fields()
            .requiredString("name").endRecord();

    /** @return a client of this test's registry; the same registry on every call; not null */
    protected abstract SchemaRegistryClient client();

    /**
     * @return a second client of this test's registry that shares no cache with {@link #client()}
     *         (for a registry without a cache, may be the same object); not null
     */
    protected abstract SchemaRegistryClient anotherClient();

    /**
     * @param name a subject name used by a test
     * @return the subject to use for it; a subclass whose registry outlives one test (e.g. a real
     *         registry started once per class) makes it unique per test; the default is {@code name}
     */
    protected String subject(String name) {
        return name;
    }

    /** @return false when the registry behind the client serves no compatibility endpoints (those cases are skipped) */
    protected boolean servesCompatibility() {
        return true;
    }

    private static long fingerprint(Schema s) {
        return SchemaNormalization.parsingFingerprint64(s);
    }

    private static void assertNotFound(SchemaRegistryException e, int errorCode) {
        assertFalse(e instanceof SchemaRegistryUnavailableException, "the registry answered: " + e);
        assertEquals(404, e.status(), e.getMessage());
        assertEquals(errorCode, e.errorCode(), e.getMessage());
    }

    @Test
    public void registerReturnsAPositiveIdThatResolvesToTheSchema() {
        int id = client().register(subject("contract-value"), V1);
        assertTrue(id > 0, "id " + id);
        assertEquals(fingerprint(V1), fingerprint(client().getById(id)));
        assertEquals(fingerprint(V1), fingerprint(anotherClient().getById(id)), "a fresh client reads it from the registry");
    }

    @Test
    public void theSameSchemaRegisteredAgainKeepsItsId() {
        int id = client().register(subject("contract-value"), V1);
        assertEquals(id, client().register(subject("contract-value"), V1));
        assertEquals(id, anotherClient().register(subject("contract-value"), V1), "also for a client without the cached id");
    }

    @Test
    public void theSameSchemaUnderTwoSubjectsHasOneRegistryWideId() {
        int id = client().register(subject("contract-a-value"), V1);
        assertEquals(id, anotherClient().register(subject("contract-b-value"), V1));
    }

    @Test
    public void differentSchemasGetDifferentIds() {
        int v1 = client().register(subject("contract-value"), V1);
        int other = client().register(subject("contract-other-value"), OTHER);
        assertNotEquals(v1, other);
        assertEquals(fingerprint(OTHER), fingerprint(anotherClient().getById(other)));
    }

    @Test
    public void getIdFindsARegisteredSchemaBySubject() {
        int id = client().register(subject("contract-value"), V1);
        assertEquals(id, client().getId(subject("contract-value"), V1));
        assertEquals(id, anotherClient().getId(subject("contract-value"), V1));
    }

    @Test
    public void getIdOfAnUnknownSubjectIsSubjectNotFoundAndRegistersNothing() {
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> client().getId(subject("contract-unknown-value"), V1));
        assertNotFound(e, 40401);
        SchemaRegistryException again = assertThrows(SchemaRegistryException.class,
                () -> anotherClient().getId(subject("contract-unknown-value"), V1));
        assertNotFound(again, 40401);
    }

    @Test
    public void getIdOfASchemaNotUnderTheSubjectIsSchemaNotFound() {
        client().register(subject("contract-value"), V1);
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> client().getId(subject("contract-value"), OTHER));
        assertNotFound(e, 40403);
    }

    @Test
    public void getByIdOfAnUnknownIdIsSchemaNotFoundNotUnavailable() {
        int id = client().register(subject("contract-value"), V1);
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> client().getById(id + 100_000));
        assertNotFound(e, 40403);
    }

    @Test
    public void aNewSubjectIsCompatibleWithAnySchema() {
        assumeTrue(servesCompatibility(), "the registry serves no compatibility endpoints");
        assertTrue(client().testCompatibility(subject("contract-new-value"), V2_REQUIRED));
    }

    @Test
    public void theDefaultLevelIsBackwardForTheRegistryAndForASubjectWithoutItsOwn() {
        assumeTrue(servesCompatibility(), "the registry serves no compatibility endpoints");
        client().register(subject("contract-value"), V1);
        assertEquals("BACKWARD", client().getCompatibility(null));
        assertEquals("BACKWARD", client().getCompatibility(subject("contract-value")));
    }

    @Test
    public void aBackwardCompatibleChangeIsANewVersionWithANewId() {
        assumeTrue(servesCompatibility(), "the registry serves no compatibility endpoints");
        int v1 = client().register(subject("contract-value"), V1);
        client().setCompatibility(subject("contract-value"), "BACKWARD");
        assertTrue(client().testCompatibility(subject("contract-value"), V2_WITH_DEFAULT));
        int v2 = client().register(subject("contract-value"), V2_WITH_DEFAULT);
        assertNotEquals(v1, v2);
        assertEquals(v1, anotherClient().getId(subject("contract-value"), V1), "earlier versions stay registered");
        assertEquals(v2, anotherClient().getId(subject("contract-value"), V2_WITH_DEFAULT));
    }

    @Test
    public void anIncompatibleChangeIsRefusedWith409AndNotRegistered() {
        assumeTrue(servesCompatibility(), "the registry serves no compatibility endpoints");
        client().register(subject("contract-value"), V1);
        client().setCompatibility(subject("contract-value"), "BACKWARD");
        assertEquals("BACKWARD", client().getCompatibility(subject("contract-value")));
        assertFalse(client().testCompatibility(subject("contract-value"), V2_REQUIRED));
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> client().register(subject("contract-value"), V2_REQUIRED));
        assertFalse(e instanceof SchemaRegistryUnavailableException, e.toString());
        assertEquals(409, e.status(), e.getMessage());
        assertNotFound(assertThrows(SchemaRegistryException.class, () -> anotherClient().getId(subject("contract-value"), V2_REQUIRED)), 40403);
    }

    @Test
    public void aSubjectLevelOfNoneAllowsAnIncompatibleChangeOnThatSubjectOnly() {
        assumeTrue(servesCompatibility(), "the registry serves no compatibility endpoints");
        String global = client().getCompatibility(null);
        client().register(subject("contract-value"), V1);
        client().register(subject("contract-strict-value"), V1);
        client().setCompatibility(subject("contract-strict-value"), "BACKWARD");
        client().setCompatibility(subject("contract-value"), "NONE");
        assertEquals("NONE", client().getCompatibility(subject("contract-value")));
        assertEquals(global, client().getCompatibility(null), "the global level is unchanged");
        assertTrue(client().testCompatibility(subject("contract-value"), V2_REQUIRED));
        assertTrue(client().register(subject("contract-value"), V2_REQUIRED) > 0);
        assertFalse(client().testCompatibility(subject("contract-strict-value"), V2_REQUIRED));
    }
}
