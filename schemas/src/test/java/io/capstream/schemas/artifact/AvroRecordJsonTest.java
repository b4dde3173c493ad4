package io.capstream.schemas.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.avro.ClientCheck;
import io.capstream.schemas.avro.Provenance;
import io.capstream.schemas.avro.ReportKind;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class AvroRecordJsonTest {
    @Test
    void everyFieldBecomesAMemberNamedAsTheFieldInSchemaOrder() {
        ClientCheck cc = ClientCheck.newBuilder().setDelayP99Ms(2.5).setGcPauses(7L).setCpuCores(2)
                .setWarnings(List.of("a", "b")).setDistorted(true).setGcCollector("ZGC Pauses").build();
        ObjectNode o = AvroRecordJson.toObject(cc);
        List<String> names = cc.getSchema().getFields().stream().map(Schema.Field::name).toList();
        List<String> keys = new java.util.ArrayList<>();
        o.fieldNames().forEachRemaining(keys::add);
        assertEquals(names, keys);
        assertEquals(2.5, o.get("delay_p99_ms").doubleValue());
        assertTrue(o.get("gc_pauses").isLong());
        assertTrue(o.get("cpu_cores").isInt());
        assertTrue(o.get("delay_p50_ms").isNull());
        assertEquals("b", o.get("warnings").get(1).textValue());
        assertTrue(o.get("distorted").booleanValue());
        assertEquals("ZGC Pauses", o.get("gc_collector").textValue());
        assertThat(ArtifactJson.write(o)).as("the artifact writer writes it").contains("2.5");
    }

    @Test
    void enumsArraysOfIntsAndNestedRecordsMapToo() {
        Provenance p = Provenance.newBuilder().setKind(ReportKind.REPLAY).setReplayOf("x")
                .setMissingRequestIndices(List.of(3, 7)).setComplete(false).build();
        ObjectNode o = AvroRecordJson.toObject(p);
        assertEquals("REPLAY", o.get("kind").textValue());
        assertEquals(7, o.get("missing_request_indices").get(1).intValue());
        assertTrue(o.get("source_file").isNull());
    }

    @Test
    void aJsonValueStringIsWrittenAsTheJsonItHolds() {
        io.capstream.schemas.avro.RunSettings run = io.capstream.schemas.avro.RunSettings.newBuilder()
                .setExtraBody("{\"top_p\":0.9,\"stop\":[\"x\"]}").setPromptSalt("{\"not\":\"json_value\"}").build();
        ObjectNode o = AvroRecordJson.toObject(run);
        org.assertj.core.api.Assertions.assertThat(o.get("extra_body").toString()).as("extra_body (json_value)")
                .isEqualTo("{\"top_p\":0.9,\"stop\":[\"x\"]}");
        org.assertj.core.api.Assertions.assertThat(o.get("prompt_salt").textValue()).as("a plain string field")
                .isEqualTo("{\"not\":\"json_value\"}");
        run.setExtraBody("{not json");
        org.assertj.core.api.Assertions.assertThat(AvroRecordJson.toObject(run).get("extra_body").textValue())
                .as("text that is not JSON stays a string").isEqualTo("{not json");
        run.setExtraBody(null);
        org.assertj.core.api.Assertions.assertThat(AvroRecordJson.toObject(run).get("extra_body").isNull()).isTrue();
    }

    @Test
    void nestedArraysMapsRecordsAndFloatsKeepTheirJsonForm() {
        Schema schema = new Schema.Parser().parse("""
                {"type": "record", "name": "Outer", "namespace": "t", "fields": [
                  {"name": "f", "type": "float"},
                  {"name": "rows", "type": {"type": "array", "items": {"type": "record", "name": "Row", "fields": [
                    {"name": "i", "type": "int"}, {"name": "ms", "type": ["null", "double"], "default": null},
                    {"name": "later", "type": ["null", "string"], "default": null, "omit_null": true}]}}},
                  {"name": "grid", "type": {"type": "array", "items": {"type": "array", "items": "long"}}},
                  {"name": "counts", "type": {"type": "map", "values": "int"}},
                  {"name": "none", "type": ["null", "string"], "default": null}]}""");
        Schema row = schema.getField("rows").schema().getElementType();
        org.apache.avro.generic.GenericRecord r1 = new org.apache.avro.generic.GenericData.Record(row);
        r1.put("i", 0);
        r1.put("ms", 12.5);
        org.apache.avro.generic.GenericRecord r2 = new org.apache.avro.generic.GenericData.Record(row);
        r2.put("i", 1);
        r2.put("later", "x");
        org.apache.avro.generic.GenericRecord outer = new org.apache.avro.generic.GenericData.Record(schema);
        outer.put("f", 0.1f);
        outer.put("rows", List.of(r1, r2));
        outer.put("grid", List.of(List.of(1L, 2L), List.of()));
        outer.put("counts", new java.util.TreeMap<>(java.util.Map.of("128", 3, "64", 1)));
        for (int round = 0; round < 2; round++) { // the second reads the schema's fields from the cache
            ObjectNode o = AvroRecordJson.toObject(outer);
            assertThat(ArtifactJson.write(o)).as("artifact JSON of the record (round %d)", round).isEqualTo("""
                    {
                      "counts": {
                        "128": 3,
                        "64": 1
                      },
                      "f": 0.10000000149011612,
                      "grid": [
                        [
                          1,
                          2
                        ],
                        []
                      ],
                      "none": null,
                      "rows": [
                        {
                          "i": 0,
                          "ms": 12.5
                        },
                        {
                          "i": 1,
                          "later": "x",
                          "ms": null
                        }
                      ]
                    }
                    """);
            assertThat(o.get("grid").get(0).get(0).isLong()).as("a long in an array of arrays stays a long").isTrue();
        }
    }
}
