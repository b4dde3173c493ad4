package io.capstream.cli.check;

import io.capstream.loadgen.client.ProbeExchange;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A finding read from the end of a stream (the usage chunk, the output count, the server's timings, a reasoning field
 * that never came) draws no conclusion from a stream that was cut off mid-body ({@link Answers#cutOff}): it becomes
 * {@link Finding.Verdict#UNKNOWN} with the value {@code unknown}, naming the request whose stream was cut. Stateless.
 */
final class CutStreams {
    /** Per finding, the requests it reads, each with its name as the detail says it. */
    private static final Map<String, List<Request>> READS = new LinkedHashMap<>();

    private record Request(String name, Function<Observations, ProbeExchange> exchange) {
    }

    static {
        Request first = new Request("the first request", Observations::basic);
        READS.put("usage_when_asked", List.of(first));
        READS.put("usage_unasked", List.of(new Request("the request without include_usage", Observations::unasked)));
        READS.put("reasoning_field", List.of(first, new Request("the thinking-on request", Observations::thinkingOn)));
        READS.put("thinking_off", List.of(first, new Request("the thinking-off request", Observations::thinkingOff)));
        READS.put("max_tokens", List.of(first));
        READS.put("prefix_cache", List.of(first, new Request("the repeated request", Observations::repeat)));
        READS.put("server_timings", List.of(first));
    }

    private CutStreams() {
    }

    /**
     * @param findings the findings, in order; not null
     * @param o        the exchanges they were read from; not null
     * @return the findings, those that read a cut stream replaced by unknown ones, in the same order
     */
    static List<Finding> mark(List<Finding> findings, Observations o) {
        return findings.stream().map(f -> {
            for (Request r : READS.getOrDefault(f.key(), List.of())) {
                ProbeExchange e = r.exchange().apply(o);
                if (Answers.cutOff(e)) {
                    return Finding.of(f.key(), Finding.Verdict.UNKNOWN, "unknown", "not observed: the stream of "
                            + r.name() + " was cut " + Answers.cutOffText(e));
                }
            }
            return f;
        }).toList();
    }
}
