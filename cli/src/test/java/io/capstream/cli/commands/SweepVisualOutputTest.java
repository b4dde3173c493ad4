package io.capstream.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.capstream.cli.sweep.SweepViews;
import io.capstream.schemas.artifact.ArtifactJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sweep --html/--csv}: the sweep page, a page per step beside its report, and one CSV of every step. */
class SweepVisualOutputTest {
    @TempDir
    Path tmp;

    private static JsonNode json(String text) throws Exception {
        return ArtifactJson.parse(text.replace('\'', '"'));
    }

    @Test
    void stepPagesGoBesideTheStepReportsAndTheCsvHoldsEveryStep() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("sweep"));
        List<SweepViews.Step> steps = List.of(
                new SweepViews.Step("s-s1", 1, dir.resolve("s-s1.json"),
                        json("{'run_id':'s-s1','request_timings':[{'request_index':0,'ttft_ms':1.5}]}")),
                new SweepViews.Step("s-s2", 2, dir.resolve("s-s2.json"),
                        json("{'run_id':'s-s2','request_timings':[{'request_index':0,'ttft_ms':2.5}],"
                                + "'failures':[{'request_index':1,'error_type':'Timeout'}]}")));
        Path html = tmp.resolve("pages/sweep.html");
        Path csv = tmp.resolve("rows.csv");
        List<String> lines = SweepViews.write(json("{'sweep_id':'s','axis':'concurrency','points':[]}"), steps, html, csv);
        assertEquals(List.of("html: " + html + " (and 2 step page(s) beside the step reports)", "csv: " + csv), lines);
        assertThat(Files.readString(html)).startsWith("<!DOCTYPE html>");
        assertThat(Files.readString(dir.resolve("s-s1.html"))).startsWith("<!DOCTYPE html>");
        assertTrue(Files.exists(dir.resolve("s-s2.html")));
        List<String> rows = Files.readAllLines(csv);
        assertEquals("run_id,step,request_index,ttft_ms,status,error_type,error_message,start_ms,first_token_ms,end_ms,"
                + "queue_ms", rows.get(0));
        assertEquals(List.of("s-s1,1,0,1.5,ok,,,,,,", "s-s2,2,0,2.5,ok,,,,,,", "s-s2,2,1,,failed,Timeout,,,,,"),
                rows.subList(1, rows.size()));
    }
}
