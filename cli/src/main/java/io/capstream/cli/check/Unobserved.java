package io.capstream.cli.check;

import java.util.List;
import java.util.Set;

/**
 * When the first streamed request of a check was not answered with a 2xx (nothing answered, a 401, a 404, a time
 * bound), the findings read from the streamed requests were not observed: they become {@link Finding.Verdict#UNKNOWN}
 * with the value {@code unknown} instead of stating a default as a fact. The findings of their own exchanges
 * ({@code streaming}, {@code content_deltas}, {@code context_window}, {@code metrics}) are kept. Stateless.
 */
final class Unobserved {
    /** The findings read from the streamed requests. */
    static final Set<String> FROM_STREAMS = Set.of("role_chunk_first", "before_first_token", "error_in_stream",
            "usage_when_asked", "usage_unasked", "reasoning_field", "thinking_off", "max_tokens", "oversize_prompt",
            "prefix_cache", "server_timings", "implied_options");

    private Unobserved() {
    }

    /**
     * @param findings the findings, in order; not null
     * @param why      what the first streamed request got, e.g. {@code "the first streamed request got HTTP 401"}
     * @return the findings with those of {@link #FROM_STREAMS} replaced by unknown ones, in the same order
     */
    static List<Finding> mark(List<Finding> findings, String why) {
        return findings.stream().map(f -> FROM_STREAMS.contains(f.key())
                ? Finding.of(f.key(), Finding.Verdict.UNKNOWN, "unknown", "not observed: " + why)
                : f).toList();
    }
}
