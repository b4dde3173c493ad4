package io.capstream.loadgen.workload;

/**
 * Counts the tokens of a text: a real tokenizer ({@link HfTokenCounter}, {@code --tokenizer}) or the
 * reference's estimate ({@link #ESTIMATE}). Implementations are thread-safe.
 */
public interface TokenCounter {
    /**
     * The reference's estimate (spec §3.3): {@code ceil(chars / }{@value PromptBuilder#CHARS_PER_TOKEN}{@code )},
     * the same 3 characters per token the synthetic prompts are built with.
     */
    TokenCounter ESTIMATE = new TokenCounter() {
        @Override
        public int count(String text) {
            return (int) Math.ceil(text.length() / PromptBuilder.CHARS_PER_TOKEN);
        }

        @Override
        public String name() {
            return "estimate";
        }
    };

    /**
     * @param text the text; not null
     * @return its tokens (&gt;= 0), without special tokens
     */
    int count(String text);

    /** @return what counts: {@code estimate}, or the tokenizer file's name */
    String name();
}
