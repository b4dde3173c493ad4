package io.capstream.cli.check;

import io.capstream.loadgen.client.ProbeExchange;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The limits: the context window {@code GET /models} gives ({@code context_window}), whether {@code max_tokens} is
 * honoured ({@code max_tokens}), and what a prompt longer than the window returns ({@code oversize_prompt}: a clean
 * 4xx with a message, or an HTTP 200 with an error in the stream, or an answer).
 */
final class LimitFindings {
    private static final Pattern WINDOW_IN_MESSAGE = Pattern.compile(
            "(?i)(?:maximum context length is|context (?:length|size|window) (?:is|of)|n_ctx\\D{0,4})\\s*(\\d{3,8})");

    /** Statuses that refuse a request for another reason than its size. */
    private static final java.util.Set<Integer> NOT_ABOUT_SIZE = java.util.Set.of(401, 403, 404, 405, 408, 429);

    private LimitFindings() {
    }

    /** @param o the exchanges; @param model the model id @return the findings, in order */
    static List<Finding> of(Observations o, String model) {
        return List.of(window(o, model), maxTokens(new StreamShape(o.basic())), oversize(o.oversize()));
    }

    /** @return the window {@code /models} gives, or null */
    static Integer modelsWindow(Observations o, String model) {
        return o.models().modelsWindow(model);
    }

    /** @return the window an oversize error states ({@code n_ctx}, "maximum context length is N"), or null */
    static Integer windowInError(ProbeExchange e) {
        String text = e.bodyText();
        Matcher m = WINDOW_IN_MESSAGE.matcher(text);
        return m.find() ? Integer.valueOf(m.group(1)) : null;
    }

    private static Finding window(Observations o, String model) {
        java.util.List<String> ids = o.models().modelIds();
        if (!ids.isEmpty() && !ids.contains(model)) {
            return Finding.of("context_window", Finding.Verdict.WARN, "unknown", "--model '" + model + "' is not among"
                    + " the ids GET /models lists (" + String.join(", ", ids.subList(0, Math.min(5, ids.size())))
                    + (ids.size() > 5 ? ", ..." : "") + "): the requests may fail, and no window is known for it");
        }
        Integer w = modelsWindow(o, model);
        if (w != null) {
            return Finding.of("context_window", Finding.Verdict.OK, Integer.toString(w), "GET /models gives the window"
                    + " (max_model_len or similar): " + w + " tokens");
        }
        Integer stated = windowInError(o.oversize());
        return Finding.of("context_window", Finding.Verdict.WARN, "unknown", "GET /models "
                + (o.models().ok() ? "lists no max_model_len, max_context_length or context_length"
                        : "failed (" + Answers.outcome(o.models()) + ")")
                + (stated != null ? "; the oversize error states " + stated + " tokens" : "")
                + ": pass --max-model-len so that capstream keeps prompts inside the window");
    }

    private static Finding maxTokens(StreamShape s) {
        int n = s.completionTokens();
        if (n < 0) {
            return Finding.of("max_tokens", Finding.Verdict.UNKNOWN, "n/a", "no output to count");
        }
        String how = s.usage() != null ? "usage.completion_tokens " + n : n + " output chunk(s)";
        if (n <= ProbeBodies.MAX_TOKENS) {
            return Finding.of("max_tokens", Finding.Verdict.OK, "honoured", how + " for max_tokens "
                    + ProbeBodies.MAX_TOKENS);
        }
        return Finding.of("max_tokens", Finding.Verdict.WARN, "ignored", how + " for max_tokens "
                + ProbeBodies.MAX_TOKENS + ": output lengths follow the model, not --max-tokens");
    }

    private static Finding oversize(ProbeExchange e) {
        if (e.status() == 0) {
            return Finding.of("oversize_prompt", Finding.Verdict.UNKNOWN, "n/a", "a prompt longer than the window: "
                    + Answers.outcome(e));
        }
        if (!e.ok()) {
            String m = Answers.message(e);
            // 401/403 (key), 404/405 (model or path), 408 and 429 say nothing of the prompt's size
            boolean clean = e.status() / 100 == 4 && m != null && !NOT_ABOUT_SIZE.contains(e.status());
            return Finding.of("oversize_prompt", clean ? Finding.Verdict.OK : Finding.Verdict.WARN,
                    "HTTP " + e.status(), "a prompt longer than the window gets " + Answers.outcome(e)
                            + (clean ? "" : NOT_ABOUT_SIZE.contains(e.status())
                                    ? " (a refusal for another reason than the prompt's size)"
                                    : " (not a clean 4xx with a message)"));
        }
        StreamShape s = new StreamShape(e);
        String error = s.streamError();
        if (error != null) {
            return Finding.of("oversize_prompt", Finding.Verdict.WARN, "200 + error in stream", "a prompt longer than"
                    + " the window gets HTTP 200 and an error in the stream: " + Answers.cut(error));
        }
        JsonNode u = s.usage();
        return Finding.of("oversize_prompt", Finding.Verdict.WARN, "200 answer", "a prompt longer than the window was"
                + " answered (" + s.contentChunks() + " content chunks" + (u == null ? "" : ", prompt_tokens "
                + u.path("prompt_tokens").asText("?")) + "): the server may truncate prompts silently");
    }
}
