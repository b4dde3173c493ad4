package io.capstream.loadgen.run;

import io.capstream.loadgen.client.ServerReply;
import io.capstream.loadgen.client.TraceHeaders;
import io.capstream.loadgen.workload.ExtraHeader;
import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;
import io.capstream.schemas.avro.ServerView;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request event's {@code server_view} (issue 33): the correlation ids sent, what the response said of the server's
 * own view, and the server's TTFT derived from it, named by its source:
 * <ol>
 * <li>llama.cpp's {@code timings.prompt_ms} ({@value #PROMPT_MS}): the engine's prefill time, from the start of the
 * prompt's processing in its slot to the end of the prefill. It excludes the wait for a free slot, HTTP parsing,
 * tokenisation, sampling and sending the first token, and the network;</li>
 * <li>else a {@code Server-Timing} entry named {@code ttft} or {@code time_to_first_token} (any case):
 * {@code server-timing:<name>}.</li>
 * </ol>
 * Stateless.
 */
final class ServerViews {
    /** The source name of llama.cpp's prefill time. */
    static final String PROMPT_MS = "timings.prompt_ms";

    private ServerViews() {
    }

    /**
     * @param target the run's target; not null
     * @return the correlation header names its requests carry ({@link TraceHeaders#sentNames}); empty when off
     */
    static List<String> sentNames(TargetConfig target) {
        return TraceHeaders.sentNames(target.traceHeaders(), target.headers().stream().map(ExtraHeader::name).toList());
    }

    /**
     * @param names the correlation header names the run sends ({@link #sentNames}); empty when off
     * @param runId the run id (the {@code X-Request-Id} prefix); not null
     * @param index the request index
     * @return fresh ids for one request (a random trace id and parent id), or null when the run sends none
     */
    static TraceHeaders.Ids ids(List<String> names, String runId, int index) {
        return names.isEmpty() ? null
                : TraceHeaders.next(runId, index, java.util.concurrent.ThreadLocalRandom.current()).keep(names);
    }

    /**
     * @param ids     the request's correlation ids, or null
     * @param headers the run's other headers (they win over a correlation header of the same name); not null
     * @return the headers to send: {@code headers} itself when {@code ids} is null, else a new map
     */
    static Map<String, String> headers(TraceHeaders.Ids ids, Map<String, String> headers) {
        if (ids == null) {
            return headers;
        }
        Map<String, String> sent = ids.headers();
        sent.putAll(headers);
        return sent;
    }

    /**
     * @param ids   the correlation ids sent, or null when trace headers were off
     * @param reply what the response said; not null ({@link ServerReply#NONE} when nothing)
     * @return the record, or null when there is nothing to record (no ids sent and nothing answered)
     */
    static ServerView of(TraceHeaders.Ids ids, ServerReply reply) {
        if ((ids == null || ids.requestId() == null && ids.traceId() == null) && reply.equals(ServerReply.NONE)) {
            return null;
        }
        ServerView v = ServerView.newBuilder()
                .setRequestId(ids == null ? null : ids.requestId())
                .setTraceId(ids == null ? null : ids.traceId())
                .setResponseId(reply.responseId())
                .setResponseRequestId(reply.responseRequestId())
                .setPromptN(reply.promptN())
                .setPromptMs(reply.promptMs())
                .setPredictedN(reply.predictedN())
                .setPredictedMs(reply.predictedMs())
                .setCacheN(reply.cacheN())
                .setServerTiming(reply.serverTiming() == null ? null : Map.copyOf(reply.serverTiming()))
                .build();
        if (reply.promptMs() != null) {
            v.setServerTtftMs(reply.promptMs());
            v.setServerTtftSource(PROMPT_MS);
        } else if (reply.serverTiming() != null) {
            for (Map.Entry<String, Double> e : reply.serverTiming().entrySet()) {
                String name = e.getKey().toLowerCase(Locale.ROOT);
                if (name.equals("ttft") || name.equals("time_to_first_token")) {
                    v.setServerTtftMs(e.getValue());
                    v.setServerTtftSource("server-timing:" + e.getKey());
                    break;
                }
            }
        }
        return v;
    }

    /**
     * Sets a request event's {@code server_view}.
     *
     * @param ev    a RequestCompleted or RequestFailed event (others are left alone); not null
     * @param ids   the ids sent, or null when trace headers were off
     * @param reply what the response said; not null
     * @return {@code ev}
     */
    static RunEvent attach(RunEvent ev, TraceHeaders.Ids ids, ServerReply reply) {
        ServerView v = of(ids, reply);
        if (ev.getPayload() instanceof RequestCompleted rc) {
            rc.setServerView(v);
        } else if (ev.getPayload() instanceof RequestFailed rf) {
            rf.setServerView(v);
        }
        return ev;
    }
}
