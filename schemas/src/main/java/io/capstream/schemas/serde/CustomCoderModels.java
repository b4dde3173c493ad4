package io.capstream.schemas.serde;

import org.apache.avro.Conversion;
import org.apache.avro.specific.SpecificData;

/**
 * Avro models with the generated classes' custom coders enabled: the same binary encoding, written
 * and read by generated code instead of Avro's generic per-field machinery. Custom decoding applies
 * only when the writer schema is the compiled schema itself (no resolution needed), as in the
 * report topology's state store.
 */
public final class CustomCoderModels {
    private CustomCoderModels() {
    }

    /**
     * @param type a generated class; not null
     * @return a new model with the class's own logical-type conversions and custom coders enabled
     */
    public static SpecificData forClass(Class<?> type) {
        SpecificData base = SpecificData.getForClass(type);
        SpecificData model = new SpecificData(type.getClassLoader());
        for (Conversion<?> c : base.getConversions()) {
            model.addLogicalTypeConversion(c);
        }
        model.setCustomCoders(true);
        return model;
    }
}
