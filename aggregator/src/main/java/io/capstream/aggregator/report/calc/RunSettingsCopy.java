package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RunSettings;
import io.capstream.schemas.avro.RunStarted;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/**
 * The one copy from {@link RunStarted} to the report's {@link RunSettings} ({@code BenchmarkReport.run}, artifact
 * key {@code capstream.run}), driven by the two schemas: each RunSettings field takes the RunStarted field of the
 * same name, or of the name in its {@code aliases} ({@code extra_body} from {@code extra_body_json}). A new run
 * setting therefore reaches the report and the artifact by a field in both schemas, without code here. The pairs
 * are resolved once, when the class loads: a RunSettings field without a RunStarted field of the same type fails
 * it ({@link ExceptionInInitializerError}), so that a schema mistake shows in the first test that makes a report.
 * Stateless and thread-safe.
 */
public final class RunSettingsCopy {
    /** RunStarted's field for each RunSettings field, by RunSettings position. */
    private static final List<Schema.Field> SOURCES = sources(RunSettings.getClassSchema(), RunStarted.getClassSchema());

    private RunSettingsCopy() {
    }

    /**
     * @param started the run's RunStarted, or null when it was not seen
     * @return its settings (a deep copy of each value), or null when {@code started} is null
     */
    public static RunSettings of(RunStarted started) {
        if (started == null) {
            return null;
        }
        RunSettings settings = new RunSettings();
        for (Schema.Field target : RunSettings.getClassSchema().getFields()) {
            Schema.Field source = SOURCES.get(target.pos());
            settings.put(target.pos(), SpecificData.get().deepCopy(source.schema(), started.get(source.pos())));
        }
        return settings;
    }

    /**
     * Pairs every field of {@code target} with the field of {@code source} of the same name or of one of its
     * aliases, of the same type.
     *
     * @param target the copy's schema (RunSettings); not null
     * @param source the original's schema (RunStarted); not null
     * @return the source field of each target field, by target position
     * @throws IllegalStateException when a target field has no source field, or one of another type
     */
    static List<Schema.Field> sources(Schema target, Schema source) {
        List<Schema.Field> out = new ArrayList<>();
        for (Schema.Field t : target.getFields()) {
            Schema.Field s = source.getField(t.name());
            for (String alias : t.aliases()) {
                s = s != null ? s : source.getField(alias);
            }
            if (s == null || !s.schema().equals(t.schema())) {
                throw new IllegalStateException(target.getName() + "." + t.name() + " has no " + source.getName()
                        + " field " + (s == null ? "of that name or alias" : "of its type " + t.schema()
                        + " (" + s.name() + " is " + s.schema() + ")"));
            }
            out.add(s);
        }
        return List.copyOf(out);
    }
}
