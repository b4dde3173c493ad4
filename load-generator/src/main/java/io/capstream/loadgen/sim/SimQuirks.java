package io.capstream.loadgen.sim;

import java.util.List;
import java.util.Locale;

/**
 * Stream behaviours of real servers and gateways that the simulated engine can put on for the chat and text
 * completions APIs ({@code --sim-preamble}, {@code --sim-reasoning-field}, {@code --sim-usage},
 * {@code --sim-errors-in-stream}, {@code --sim-no-stream}), so that {@code capstream check} and the client can be
 * tested against each. The default, {@link #NONE}, is the OpenAI/vLLM shape.
 *
 * @param preamble       frames written as soon as a streamed request arrives, before the role chunk and the first
 *                       token, in this order; never null (empty = none)
 * @param reasoningField the delta (and message) field reasoning tokens go in: {@code reasoning_content} (vLLM,
 *                       llama.cpp) or {@code reasoning} (OpenRouter, newer vLLM); never null
 * @param usage          when the usage chunk is sent
 * @param errorsInStream the context-length 400 and the injected 500 of a streamed request are sent as an HTTP 200
 *                       event stream whose one data line is the error object, then {@code [DONE]} (as some
 *                       gateways do) instead of an HTTP error
 * @param ignoreStream   {@code "stream": true} is ignored: the answer is one JSON body ({@code application/json})
 */
public record SimQuirks(List<Preamble> preamble, String reasoningField, Usage usage, boolean errorsInStream,
                        boolean ignoreStream) {
    /** The OpenAI/vLLM shape: no preamble, {@code reasoning_content}, usage when asked, HTTP errors, streams. */
    public static final SimQuirks NONE = new SimQuirks(List.of(), "reasoning_content", Usage.ASKED, false, false);

    /** A frame sent before the first token. */
    public enum Preamble {
        /** An SSE comment line, {@code : keep-alive} (ignored by SSE parsers). */
        COMMENT,
        /** A chunk whose delta is {@code {"content":""}}, without a role. */
        EMPTY,
        /** A progress chunk with {@code "choices":[]} and no usage (as Azure's prompt-filter chunk). */
        PROGRESS;

        /**
         * @param list comma-separated kinds (comment, empty, progress; case-insensitive), or null/blank for none
         * @return the kinds, in order
         * @throws IllegalArgumentException for an unknown kind
         */
        public static List<Preamble> parseList(String list) {
            if (list == null || list.isBlank()) {
                return List.of();
            }
            return java.util.Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).map(s -> {
                try {
                    return valueOf(s.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--sim-preamble takes comment, empty and progress, got '" + s
                            + "'");
                }
            }).toList();
        }
    }

    /** When the usage chunk is sent. */
    public enum Usage {
        /** Only with {@code stream_options.include_usage} (OpenAI, vLLM). */
        ASKED,
        /** Always (llama.cpp sends it unasked). */
        ALWAYS,
        /** Never. */
        NEVER;

        /**
         * @param v asked, always or never (case-insensitive)
         * @return the value
         * @throws IllegalArgumentException for another value
         */
        public static Usage parse(String v) {
            try {
                return valueOf(v.strip().toUpperCase(Locale.ROOT));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("--sim-usage must be asked, always or never, got '" + v + "'");
            }
        }

        /** @param asked the request set {@code include_usage} @return whether the usage chunk is sent */
        boolean sends(boolean asked) {
            return this == ALWAYS || this == ASKED && asked;
        }
    }

    /** Checks the values. @throws IllegalArgumentException for an unknown reasoning field */
    public SimQuirks {
        preamble = preamble == null ? List.of() : List.copyOf(preamble);
        reasoningField = reasoningField == null ? "reasoning_content" : reasoningField;
        usage = usage == null ? Usage.ASKED : usage;
        if (!reasoningField.equals("reasoning_content") && !reasoningField.equals("reasoning")) {
            throw new IllegalArgumentException("--sim-reasoning-field must be reasoning_content or reasoning, got '"
                    + reasoningField + "'");
        }
    }
}
