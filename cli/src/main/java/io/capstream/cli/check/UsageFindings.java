package io.capstream.cli.check;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The usage chunk: with {@code stream_options.include_usage} ({@code usage_when_asked}: without it the report's token
 * counts, throughput, decode rate and ITL are empty) and without ({@code usage_unasked}).
 */
final class UsageFindings {
    private UsageFindings() {
    }

    /** @param o the exchanges @return the findings, in order */
    static List<Finding> of(Observations o) {
        return List.of(asked(new StreamShape(o.basic())), unasked(new StreamShape(o.unasked())));
    }

    private static Finding asked(StreamShape s) {
        if (s.exchange().chunks().isEmpty()) {
            return Finding.of("usage_when_asked", Finding.Verdict.UNKNOWN, "n/a", "no stream to look at");
        }
        JsonNode u = s.usage();
        if (u == null) {
            return Finding.of("usage_when_asked", Finding.Verdict.WARN, "no", "no usage chunk with include_usage:"
                    + " the report's prompt and output tokens, throughput, decode rate and ITL will be empty (the"
                    + " protocol counts tokens from usage only, spec §4.3 and §7); TTFT and E2E are measured");
        }
        return Finding.of("usage_when_asked", Finding.Verdict.OK, "yes", "usage " + Answers.cut(u.toString()));
    }

    private static Finding unasked(StreamShape s) {
        if (s.exchange().chunks().isEmpty()) {
            return Finding.of("usage_unasked", Finding.Verdict.UNKNOWN, "n/a", "no stream to look at");
        }
        boolean sent = s.usage() != null;
        return Finding.of("usage_unasked", Finding.Verdict.INFO, sent ? "yes" : "no", sent
                ? "a usage chunk comes without stream_options too" : "no usage chunk unless stream_options.include_usage"
                + " is sent (capstream always sends it)");
    }
}
