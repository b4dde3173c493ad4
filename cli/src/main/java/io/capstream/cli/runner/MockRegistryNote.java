package io.capstream.cli.runner;

import io.capstream.cli.config.Secrets;
import io.capstream.schemas.registry.SchemaRegistryClients;

/**
 * The note a command that runs load prints before it starts when it writes to a given Kafka with the in-process
 * {@code mock://} registry (no {@code --schema-registry-url}): its records there carry schema ids only this process
 * knows, so {@code aggregate} and {@code tail} cannot decode them (a fresh user's report on a shared Kafka then made
 * every later {@code tail reports} fail). Stateless.
 */
final class MockRegistryNote {
    private MockRegistryNote() {
    }

    /**
     * @param bootstrapServers the given bootstrap servers, or null for the embedded broker (no note: nothing else
     *                         reads it)
     * @param registryUrl      the registry the records are encoded with; not null
     * @param report           whether the command awaits (and so writes) a report besides the events
     * @return e.g. {@code the events and report written to 127.0.0.1:9092 are encoded with the in-process registry
     *         mock://capstream, which other processes (aggregate, tail) cannot decode: give --schema-registry-url (the
     *         one `capstream up` prints)}, or null when no note is due
     */
    static String of(String bootstrapServers, String registryUrl, boolean report) {
        if (bootstrapServers == null || !registryUrl.startsWith(SchemaRegistryClients.MOCK_PREFIX)) {
            return null;
        }
        return "the events" + (report ? " and report" : "") + " written to " + Secrets.redactUrls(bootstrapServers)
                + " are encoded with the in-process registry " + Secrets.redactUrls(registryUrl) + ", which other"
                + " processes (aggregate, tail) cannot decode: give --schema-registry-url (the one `capstream up`"
                + " prints)";
    }
}
