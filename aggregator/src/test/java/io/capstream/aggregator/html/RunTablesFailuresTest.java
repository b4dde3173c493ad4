package io.capstream.aggregator.html;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 26 item 8: the run page lists failures in capstream's words, not the reference's Python texts. */
class RunTablesFailuresTest {
    @Test
    void failureRowsSayTheCauseInCapstreamsWords() throws Exception {
        JsonNode failures = new ObjectMapper().readTree("[{\"request_index\":3,\"error_type\":\"URLError\","
                + "\"error_message\":\"<urlopen error [Errno 111] Connection refused>\"},"
                + "{\"request_index\":5,\"error_type\":\"TimeoutError\",\"error_message\":\"timed out\"},"
                + "{\"request_index\":7,\"error_type\":\"ValueError\"}]");
        assertEquals(List.of(List.of("3", "URLError", "connection refused: nothing listened at the endpoint"),
                        List.of("5", "TimeoutError", "no data within --timeout (read timed out)"),
                        List.of("7", "ValueError", "ValueError (no message)")),
                RunTables.firstFailures(failures, 10));
    }
}
