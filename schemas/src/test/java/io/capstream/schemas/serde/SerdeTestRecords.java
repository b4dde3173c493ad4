package io.capstream.schemas.serde;

import io.capstream.schemas.avro.SloBreach;

/** Ready-made records for tests in other packages. */
public final class SerdeTestRecords {
    private SerdeTestRecords() {
    }

    /** @return a random but valid {@link SloBreach} (fixed seed) */
    public static SloBreach sloBreach() {
        return SpecificAvroSerdeRoundTripTest.randomRecords(SloBreach.class, 1, 11).get(0);
    }
}
