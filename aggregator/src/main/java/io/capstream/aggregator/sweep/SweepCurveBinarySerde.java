package io.capstream.aggregator.sweep;

import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.serde.AvroBinarySerde;
import org.apache.avro.specific.SpecificData;

/**
 * Plain Avro binary encoding of a {@link SweepCurve} for the sweep topology's internal topics: the
 * repartition topic (one-point curves keyed by sweep id) and the changelog of {@link SweepTopology#STORE}
 * ({@link AvroBinarySerde}: same-version data, and no schema registered for an internal topic, which a
 * throwaway application id would otherwise leave in the registry). Thread-safe.
 */
public final class SweepCurveBinarySerde extends AvroBinarySerde<SweepCurve> {
    /** A serde over the compiled SweepCurve schema. */
    public SweepCurveBinarySerde() {
        super(SweepCurve.getClassSchema(), SpecificData.getForClass(SweepCurve.class));
    }
}
