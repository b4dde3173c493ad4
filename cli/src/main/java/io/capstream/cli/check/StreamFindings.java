package io.capstream.cli.check;

import io.capstream.loadgen.client.NonStreamBody;
import io.capstream.loadgen.client.ProbeExchange;

import static io.capstream.cli.check.Finding.Verdict.FAIL;
import static io.capstream.cli.check.Finding.Verdict.INFO;
import static io.capstream.cli.check.Finding.Verdict.OK;
import static io.capstream.cli.check.Finding.Verdict.WARN;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stream's shape, from the first streamed request ({@code include_usage}, no thinking control): whether it
 * streams ({@code streaming}), carries output deltas ({@code content_deltas}), opens with a role chunk
 * ({@code role_chunk_first}), what precedes the first token ({@code before_first_token}), and whether any request's
 * HTTP 200 stream held an error object ({@code error_in_stream}). {@code streaming} fails, as {@code run} fails each
 * such request, on a 2xx JSON body ({@code not streamed}) and on a stream whose connection closed before
 * {@code [DONE]} ({@code cut}).
 */
final class StreamFindings {
    private StreamFindings() {
    }

    /**
     * @param o    the exchanges
     * @param text whether the endpoint is text completions (no role chunk)
     * @return the findings, in order
     */
    static List<Finding> of(Observations o, boolean text) {
        StreamShape s = new StreamShape(o.basic());
        List<Finding> out = new ArrayList<>();
        out.add(streaming(s));
        out.add(contentDeltas(s));
        boolean any = !o.basic().chunks().isEmpty();
        out.add(text ? Finding.of("role_chunk_first", INFO, "n/a", "text completions have no role chunk")
                : any ? Finding.of("role_chunk_first", s.roleFirst() ? OK : INFO, s.roleFirst() ? "yes" : "no",
                s.roleFirst() ? "the first chunk carries delta.role" : "the first chunk has no delta.role (the"
                        + " client does not need it)")
                : Finding.of("role_chunk_first", Finding.Verdict.UNKNOWN, "n/a", "no chunk to look at"));
        out.add(beforeFirstToken(s, any));
        out.add(errorInStream(o));
        return out;
    }

    private static Finding streaming(StreamShape s) {
        ProbeExchange e = s.exchange();
        if (Answers.timedOut(e)) {
            return Finding.of("streaming", Finding.Verdict.UNKNOWN, "timed out", "a streamed request got "
                    + Answers.outcome(e));
        }
        if (!e.ok()) {
            return Finding.of("streaming", FAIL, e.status() == 0 ? "no answer" : "HTTP " + e.status(),
                    "a streamed request got " + Answers.outcome(e));
        }
        if (s.wholeJsonBody() && e.chunks().isEmpty()) {
            return Finding.of("streaming", FAIL, "whole JSON body", "\"stream\": true was answered with one JSON body"
                    + " (Content-Type " + e.contentType() + "): no first-token time can be measured");
        }
        if (e.chunks().isEmpty() && NonStreamBody.isJson(e.contentType())) {
            // what run records for such an answer, word for word (a malformed or error body under a JSON type)
            NonStreamBody body = NonStreamBody.notStreamed(e.contentType());
            body.append(e.body(), 0, e.body().length);
            return Finding.of("streaming", FAIL, "not streamed", Answers.cut(body.error().message())
                    + "; run counts such requests as " + body.error().type() + " failures");
        }
        if (Answers.cutOff(e)) {
            return Finding.of("streaming", FAIL, "cut", "the connection closed mid-stream " + Answers.cutOffText(e)
                    + " (" + Answers.cut(e.failure()) + "): run counts such requests as IncompleteRead failures");
        }
        if (e.chunks().isEmpty()) {
            return Finding.of("streaming", FAIL, "no SSE data", "the 200 answer (Content-Type " + e.contentType()
                    + ") held no SSE data line with JSON");
        }
        if (!e.eventStream()) {
            return Finding.of("streaming", WARN, "SSE as " + e.contentType(), "SSE data lines under Content-Type "
                    + e.contentType() + " instead of text/event-stream (capstream reads them; proxies may buffer)");
        }
        return Finding.of("streaming", OK, "sse", e.chunks().size() + " data chunks, Content-Type "
                + e.contentType() + (s.done() ? ", ends with [DONE]" : ", no [DONE]"));
    }

    private static Finding contentDeltas(StreamShape s) {
        int content = s.contentChunks();
        int reasoning = s.reasoningChunks();
        if (content > 0) {
            return Finding.of("content_deltas", OK, Integer.toString(content), content + " content and " + reasoning
                    + " reasoning delta(s) for max_tokens " + ProbeBodies.MAX_TOKENS);
        }
        if (reasoning > 0) {
            return Finding.of("content_deltas", WARN, "0", "only " + reasoning + " reasoning delta(s) within max_tokens "
                    + ProbeBodies.MAX_TOKENS + ": the first visible content comes later (TTFT waits for it; time to first output, TTFO, counts reasoning)");
        }
        return Finding.of("content_deltas", s.exchange().ok() && !s.exchange().chunks().isEmpty() ? FAIL
                : Finding.Verdict.UNKNOWN, "0", "no content, text or reasoning delta arrived");
    }

    private static Finding beforeFirstToken(StreamShape s, boolean any) {
        if (!any) {
            return Finding.of("before_first_token", Finding.Verdict.UNKNOWN, "n/a", "no stream to look at");
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String label : s.beforeFirstToken()) {
            counts.merge(label, 1, Integer::sum);
        }
        counts.remove("role");
        if (counts.isEmpty()) {
            return Finding.of("before_first_token", OK, "nothing", "nothing but a role chunk precedes the first token");
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((k, v) -> parts.add(v == 1 ? k : k + " x" + v));
        String seen = String.join(", ", parts);
        return Finding.of("before_first_token", INFO, seen, "before the first token: " + seen
                + " (comment = ': ...' keep-alive line, empty = a chunk without output, progress = \"choices\": []);"
                + " capstream skips them: TTFT counts from the first token");
    }

    private static Finding errorInStream(Observations o) {
        ProbeExchange[] all = {o.basic(), o.repeat(), o.unasked(), o.thinkingOn(), o.thinkingOff(), o.oversize()};
        String[] names = {"the first request", "the repeated request", "the request without include_usage",
            "thinking on", "thinking off", "the oversize prompt"};
        for (int i = 0; i < all.length; i++) {
            StreamShape s = new StreamShape(all[i]);
            String m = all[i].ok() ? s.streamError() : null;
            if (m != null) {
                return Finding.of("error_in_stream", i == 0 ? FAIL : WARN, "yes",
                        "HTTP 200 stream with an error object (" + names[i] + ")"
                        + (s.itemsAfterError() ? ", followed by more data" : "") + ": " + Answers.cut(m)
                        + "; capstream counts such a request as failed");
            }
        }
        return Finding.of("error_in_stream", OK, "none seen", "no HTTP 200 stream held an error object");
    }
}
