package io.capstream.aggregator.sweep;

import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.serde.AvroBinarySerde;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/**
 * Plain Avro binary encoding of a {@link SweepCurve} for the sweep topology's internal topics: the
 * repartition topic (one-point curves keyed by sweep id) and the changelog of {@link SweepTopology#STORE}
 * ({@link AvroBinarySerde}: same-version data, and no schema registered for an internal topic, which a
 * throwaway application id would otherwise leave in the registry). Bytes written before issue 32 (whose points had
 * no {@code percentile_ci}) are still read, through the earlier writer schema kept in
 * {@code sweep-curve-before-issue-32.avsc}: a sweep store's changelog survives the upgrade. Thread-safe.
 */
public final class SweepCurveBinarySerde extends AvroBinarySerde<SweepCurve> {
    /** The SweepCurve schema capstream wrote before issue 32 added the points' percentile intervals. */
    private static final Schema BEFORE_ISSUE_32 = 
            earlierSchema(SweepCurveBinarySerde.class, "sweep-curve-before-issue-32.avsc");

    /** A serde over the compiled SweepCurve schema. */
    public SweepCurveBinarySerde() {
        super(SweepCurve.getClassSchema(), SpecificData.getForClass(SweepCurve.class), List.of(BEFORE_ISSUE_32));
    }
}
