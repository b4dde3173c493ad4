package io.capstream.aggregator.report.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.capstream.schemas.avro.RunSettings;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.junit.jupiter.api.Test;

class RunSettingsCopyTest {

    @Test
    void everyRunSettingsFieldIsSetFromItsRunStartedField() {
        RunStarted st = RunSettingsArtifactTest.everySettingWithConversations();
        RunSettings settings = RunSettingsCopy.of(st);
        List<String> unset = new ArrayList<>();
        for (Schema.Field f : RunSettings.getClassSchema().getFields()) {
            Object v = settings.get(f.pos());
            Object dflt = f.hasDefaultValue() ? GenericData.get().getDefaultValue(f) : null;
            if (v == null || v.equals(dflt) || Boolean.FALSE.equals(v) || v instanceof List<?> l && l.isEmpty()) {
                unset.add(f.name() + " = " + v);
            }
            String source = RunStarted.getClassSchema().getField(f.name()) != null ? f.name() : f.aliases().iterator().next();
            assertThat(v).as("RunSettings.%s", f.name()).isEqualTo(st.get(source));
        }
        assertThat(unset).as("RunSettings fields left at their default by a RunStarted with every setting set (set"
                + " them in RunSettingsArtifactTest.everySettingWithConversations)").isEmpty();
        assertThat(settings.getExtraBody()).as("extra_body from extra_body_json, its alias")
                .isEqualTo(st.getExtraBodyJson());
    }

    @Test
    void noRunStartedNoSettings() {
        assertThat(RunSettingsCopy.of(null)).isNull();
    }

    @Test
    void aSettingWithoutItsRunStartedFieldIsNamed() {
        Schema target = SchemaBuilder.record("RunSettings").fields().optionalInt("no_such_setting").endRecord();
        assertThatThrownBy(() -> RunSettingsCopy.sources(target, RunStarted.getClassSchema()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("RunSettings.no_such_setting has no RunStarted field of that name or alias");
        Schema mistyped = SchemaBuilder.record("RunSettings").fields().optionalString("burst").endRecord();
        assertThatThrownBy(() -> RunSettingsCopy.sources(mistyped, RunStarted.getClassSchema()))
                .hasMessageStartingWith("RunSettings.burst has no RunStarted field of its type");
    }
}
