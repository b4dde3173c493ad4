package io.capstream.cli.check;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.capstream.loadgen.workload.ApiEndpoint;

/**
 * The request bodies of the check: a short prompt (about {@value #PROMPT_WORDS} words, starting with a random salt so
 * that no earlier request shares its prefix) with a small {@code max_tokens}, streamed, in the chat or text
 * completions form; variants with and without {@code stream_options.include_usage} and with
 * {@code chat_template_kwargs.enable_thinking} (capstream's {@code --thinking-mode} control); and an oversize prompt.
 */
public final class ProbeBodies {
    /** Words of the normal prompt. */
    static final int PROMPT_WORDS = 120;
    /** The {@code max_tokens} of every probe request. */
    public static final int MAX_TOKENS = 8;
    /** Words of the oversize prompt when the window is unknown. */
    static final int OVERSIZE_WORDS_UNKNOWN = 140_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private final String model;
    private final ApiEndpoint endpoint;
    private final String prompt;

    /**
     * @param model    the model id; not null
     * @param endpoint chat or completions; not null
     * @param salt     a random word that starts the prompt; not null
     */
    public ProbeBodies(String model, ApiEndpoint endpoint, String salt) {
        this.model = model;
        this.endpoint = endpoint;
        StringBuilder b = new StringBuilder("# check ").append(salt).append('\n');
        String[] words = {"Capacity", "benchmarks", "send", "many", "requests", "and", "time", "each", "token", "."};
        for (int i = 0; i < PROMPT_WORDS; i++) {
            b.append(words[i % words.length]).append(' ');
        }
        this.prompt = b.append("\nAnswer in one short sentence.").toString();
    }

    /**
     * @param includeUsage send {@code stream_options.include_usage: true}
     * @param thinking     {@code chat_template_kwargs.enable_thinking}, or null for no control (chat only)
     * @return the body of a streamed request with the normal prompt
     */
    public String streamed(boolean includeUsage, Boolean thinking) {
        return body(prompt, includeUsage, thinking);
    }

    /**
     * @param window the context window, tokens, or null when unknown
     * @return a streamed request whose prompt is longer than the window (about one token per word)
     */
    public String oversize(Integer window) {
        int words = window == null ? OVERSIZE_WORDS_UNKNOWN : window + 256;
        StringBuilder b = new StringBuilder(words * 6);
        for (int i = 0; i < words; i++) {
            b.append("hello ");
        }
        return body(b.toString(), true, null);
    }

    private String body(String text, boolean includeUsage, Boolean thinking) {
        ObjectNode o = JSON.createObjectNode().put("model", model);
        if (endpoint == ApiEndpoint.COMPLETIONS) {
            o.put("prompt", text);
        } else {
            o.putArray("messages").addObject().put("role", "user").put("content", text);
        }
        o.put("max_tokens", MAX_TOKENS).put("temperature", 0).put("stream", true);
        if (includeUsage) {
            o.putObject("stream_options").put("include_usage", true);
        }
        if (thinking != null && endpoint == ApiEndpoint.CHAT) {
            o.putObject("chat_template_kwargs").put("enable_thinking", thinking);
        }
        return o.toString();
    }
}
