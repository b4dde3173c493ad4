package io.capstream.schemas.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.schemas.artifact.ArtifactJson;
import io.capstream.schemas.avro.SweepCurve;
import io.capstream.schemas.avro.SweepPoint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepJsonTest {
    private static final String HEADER = "step,run_id,load,repeat,requests,completed,failed,error_rate,requests_per_s,"
            + "output_tok_s,total_tok_s,ttft_p50_ms,ttft_p95_ms,ttft_p99_ms,itl_p50_ms,itl_p95_ms,itl_p99_ms,"
            + "inter_chunk_p50_ms,inter_chunk_p95_ms,inter_chunk_p99_ms,e2e_p50_ms,"
            + "e2e_p95_ms,e2e_p99_ms,goodput,goodput_rps,offered_load,scheduled_load,achieved_load,behind_schedule,"
            + "interrupted,meets_slos,held_by_in_flight_cap,"
            // issue 32: two interval columns per percentile column, in the same order
            + "ttft_p50_ms_ci_low,ttft_p50_ms_ci_high,ttft_p95_ms_ci_low,ttft_p95_ms_ci_high,"
            + "ttft_p99_ms_ci_low,ttft_p99_ms_ci_high,itl_p50_ms_ci_low,itl_p50_ms_ci_high,"
            + "itl_p95_ms_ci_low,itl_p95_ms_ci_high,itl_p99_ms_ci_low,itl_p99_ms_ci_high,"
            + "inter_chunk_p50_ms_ci_low,inter_chunk_p50_ms_ci_high,inter_chunk_p95_ms_ci_low,inter_chunk_p95_ms_ci_high,"
            + "inter_chunk_p99_ms_ci_low,inter_chunk_p99_ms_ci_high,e2e_p50_ms_ci_low,e2e_p50_ms_ci_high,"
            + "e2e_p95_ms_ci_low,e2e_p95_ms_ci_high,e2e_p99_ms_ci_low,e2e_p99_ms_ci_high";
    /** The 24 empty interval columns of a point without intervals. */
    private static final String NO_CI = ",".repeat(24);

    private static SweepPoint point(int step, String runId, double load, Boolean meets) {
        return SweepPoint.newBuilder().setStep(step).setRunId(runId).setLoad(load).setRepeat(step == 3)
                .setRequests(20).setCompleted(19).setFailed(1).setErrorRate(0.05).setRequestsPerS(9.5)
                .setOutputTokS(350.25).setTotalTokS(1200.0).setTtftP50Ms(12.0).setTtftP95Ms(25.5).setTtftP99Ms(30.0)
                .setItlP50Ms(null).setItlP95Ms(null).setItlP99Ms(null).setE2eP50Ms(110.0).setE2eP95Ms(210.0)
                .setE2eP99Ms(250.0).setGoodput(meets == null ? null : 0.95).setGoodputRps(meets == null ? null : 9.0)
                .setOfferedLoad(load).setAchievedLoad(load * 0.9375).setBehindSchedule(false).setMeetsSlos(meets).build();
    }

    private static SweepCurve curve(String axis, double load, Double max, String maxRunId) {
        List<SweepPoint> points = new ArrayList<>();
        points.add(point(1, "run-1", load / 2, true));
        points.add(point(2, "run-2", load, true));
        points.add(point(3, "run-3", load, true));
        return SweepCurve.newBuilder().setSweepId("sweep-1").setAxis(axis).setMode("search")
                .setSlos(new ArrayList<>(List.of("ttft_p95_ms<=300"))).setStepsPlanned(null).setPoints(points)
                .setMaxLoadMeetingSlos(max).setMaxLoadRunId(maxRunId).setUpdatedAtMs(1_767_225_603_000L).build();
    }

    @Test
    void concurrencyMaxLoadIsAnIntegerObjectWithItsRunAndStep() {
        ObjectNode o = SweepJson.toJson(curve("concurrency", 8, 8.0, "run-3"));
        JsonNode max = o.get("max_load_meeting_slos");
        assertEquals(3, max.size());
        assertTrue(max.get("concurrency").isInt(), max.toString());
        assertEquals(8, max.get("concurrency").intValue());
        assertEquals("run-3", max.get("run_id").textValue());
        assertEquals(3, max.get("step").intValue());
        assertFalse(o.has("max_load_run_id"));
        assertEquals("sweep-1", o.get("sweep_id").textValue());
        assertEquals("concurrency", o.get("axis").textValue());
        assertEquals("search", o.get("mode").textValue());
        assertTrue(o.get("steps_planned").isNull());
        assertEquals("ttft_p95_ms<=300", o.get("slos").get(0).textValue());
        assertEquals(1_767_225_603_000L, o.get("updated_at_ms").longValue());
        assertEquals(3, o.get("points").size());
        JsonNode p1 = o.get("points").get(0);
        assertEquals(33, p1.size(), "every SweepPoint field");
        assertEquals(4.0, p1.get("load").doubleValue());
        assertTrue(p1.get("load").isDouble());
        assertTrue(p1.get("requests").isInt());
        assertTrue(p1.get("itl_p50_ms").isNull());
        assertEquals(Boolean.TRUE, p1.get("meets_slos").booleanValue());
    }

    @Test
    void rateMaxLoadIsAFloat() {
        String text = SweepJson.json(curve("rate", 12.5, 12.5, "run-3"));
        assertThat(text).contains("\"max_load_meeting_slos\": {\n    \"rate\": 12.5,\n    \"run_id\": \"run-3\",\n"
                + "    \"step\": 3\n  }");
        SweepCurve two = curve("rate", 16, 16.0, "run-2");
        JsonNode max = SweepJson.toJson(two).get("max_load_meeting_slos");
        assertTrue(max.get("rate").isDouble());
        assertEquals(16.0, max.get("rate").doubleValue());
        assertEquals(2, max.get("step").intValue());
        assertThat(SweepJson.json(two)).contains("\"rate\": 16.0,");
    }

    @Test
    void noLoadMeetingTheSlosIsNull() {
        ObjectNode o = SweepJson.toJson(curve("concurrency", 8, null, null));
        assertTrue(o.get("max_load_meeting_slos").isNull());
        assertFalse(o.has("max_load_run_id"));
        assertThat(SweepJson.json(curve("concurrency", 8, null, null))).contains("\"max_load_meeting_slos\": null,");
    }

    @Test
    void csvHasTheFieldNamesAndOneRowPerPoint() {
        String csv = SweepJson.toCsv(curve("concurrency", 8, 8.0, "run-3"));
        String[] lines = csv.split("\r\n", -1);
        assertEquals(5, lines.length, "header, 3 rows, nothing after the last CRLF");
        assertEquals(HEADER, lines[0]);
        assertEquals("1,run-1,4.0,false,20,19,1,0.05,9.5,350.25,1200.0,12.0,25.5,30.0,,,,,,,110.0,210.0,250.0,0.95,9.0,"
                + "4.0,,3.75,false,false,true,false" + NO_CI, lines[1]);
        assertEquals("3,run-3,8.0,true,20,19,1,0.05,9.5,350.25,1200.0,12.0,25.5,30.0,,,,,,,110.0,210.0,250.0,0.95,9.0,"
                + "8.0,,7.5,false,false,true,false" + NO_CI, lines[3]);
        assertEquals("", lines[4]);
    }

    @Test
    void csvQuotesFieldsWithCommasQuotesAndLineBreaksAndLeavesNullsEmpty() {
        SweepCurve c = curve("concurrency", 8, null, null);
        c.getPoints().set(0, SweepPoint.newBuilder(point(1, "run,\"a\"", 1, null)).build());
        c.getPoints().set(1, SweepPoint.newBuilder(point(2, "line\nbreak", 2, null)).build());
        String[] lines = SweepJson.toCsv(c).split("\r\n", -1);
        assertThat(lines[1]).startsWith("1,\"run,\"\"a\"\"\",1.0,");
        assertThat(lines[1]).as("null goodput, goodput_rps, scheduled_load and"
                + " meets_slos: " + lines[1]).endsWith(",1.0,,0.9375,false,false,,false" + NO_CI);
        assertThat(lines[1]).contains(",250.0,,,1.0,");
        assertThat(lines[2]).startsWith("2,\"line\nbreak\",2.0,");
    }

    /** Issue 32: each percentile's interval in its two columns; a percentile without one leaves them empty. */
    @Test
    void csvHasTheIntervalOfEachPercentileThatHasOne() {
        SweepCurve c = curve("concurrency", 8, null, null);
        c.getPoints().set(0, SweepPoint.newBuilder(point(1, "run-1", 4, true)).setPercentileCi(java.util.Map.of(
                "ttft_p95_ms", List.of(22.25, 29.0), "e2e_p50_ms", List.of(100.5, 120.0))).build());
        String[] lines = SweepJson.toCsv(c).split("\r\n", -1);
        String[] header = lines[0].split(",", -1);
        String[] row = lines[1].split(",", -1);
        assertThat(row).as("as many fields as header columns: " + lines[1]).hasSameSizeAs(header);
        java.util.Map<String, String> byColumn = new java.util.LinkedHashMap<>();
        for (int i = 0; i < header.length; i++) {
            byColumn.put(header[i], row[i]);
        }
        assertThat(byColumn).as("interval columns of step 1").containsEntry("ttft_p95_ms_ci_low", "22.25")
                .containsEntry("ttft_p95_ms_ci_high", "29.0").containsEntry("e2e_p50_ms_ci_low", "100.5")
                .containsEntry("e2e_p50_ms_ci_high", "120.0").containsEntry("ttft_p99_ms_ci_low", "")
                .containsEntry("ttft_p99_ms_ci_high", "").doesNotContainKey("percentile_ci");
        assertThat(lines[2]).as("step 2 has no intervals").endsWith(NO_CI);
        assertThat(SweepJson.toJson(c).get("points").get(0).get("percentile_ci").toString()).as("sweep.json")
                .contains("\"ttft_p95_ms\":[22.25,29.0]");
    }

    @Test
    void anEmptyCurveHasOnlyTheHeader() {
        SweepCurve c = SweepCurve.newBuilder().setSweepId("s").setAxis("rate").setMode("grid").setStepsPlanned(4)
                .setPoints(new ArrayList<>()).build();
        assertEquals(HEADER + "\r\n", SweepJson.toCsv(c));
        assertEquals(0, SweepJson.toJson(c).get("points").size());
        assertEquals(4, SweepJson.toJson(c).get("steps_planned").intValue());
    }

    @Test
    void writeFilesWritesBothFiles(@TempDir Path dir) throws Exception {
        SweepCurve c = curve("concurrency", 8, 8.0, "run-3");
        SweepJson.writeFiles(dir, c);
        assertEquals(SweepJson.json(c), Files.readString(dir.resolve(SweepJson.JSON_FILE), StandardCharsets.UTF_8));
        assertEquals(SweepJson.toCsv(c), Files.readString(dir.resolve(SweepJson.CSV_FILE), StandardCharsets.UTF_8));
        assertEquals(8, ArtifactJson.read(dir.resolve(SweepJson.JSON_FILE)).get("max_load_meeting_slos")
                .get("concurrency").intValue());
    }
}
