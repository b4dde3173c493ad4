package io.capstream.aggregator.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The run page's table of a {@code --rate-schedule}'s stages (issue 30): offered against achieved arrival rate per
 * segment, from {@code capstream.load.stages}. Stateless.
 */
final class StageTable {
    private StageTable() {
    }

    /** Header of {@link #rows}. */
    static final List<String> HEADER = List.of("from (s)", "to (s)", "offered (req/s)", "achieved (req/s)",
            "requests");

    /**
     * @param load capstream.load
     * @return one row per {@code stages} entry (issue 30: a --rate-schedule segment); empty without stages
     */
    static List<List<String>> rows(JsonNode load) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode s : load.path("stages")) {
            rows.add(List.of(Fmt.value(s.get("start_s")), Fmt.value(s.get("end_s")),
                    Fmt.value(s.get("offered_rate_rps")), Fmt.value(s.get("achieved_rate_rps")),
                    Fmt.value(s.get("requests"))));
        }
        return rows;
    }
}
