package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A synthetic prompt's body from {@link PromptBody} is byte for byte the JSON generator's (issue 33 item 4). */
class PromptBodyTest {
    private static final String[] ODD_PROMPTS = {"", "plain", "q\"uote and back\\slash", "tab\there\r\nline",
            "del\u007f", "caf\u00e9", "\u0141\u00f3d\u017a", "emoji \ud83d\ude00 end", "nul\u0000", "bell\u0007",
            "ff\f bs\b", "lone \ud83d surrogate", "</script>", "\u2028sep"};

    private static List<RequestBodyBuilder> builders() {
        List<RequestBodyBuilder> out = new ArrayList<>();
        String[] models = {"oracle", "m\"1\\x", "mod\u00e8le/\u4e2d", "capstream-prompt-body-4d0c9f"};
        ExtraBody[] extras = {null, ExtraBody.parse("{\"temperature\":0.7,\"top_p\":0.9}"),
                ExtraBody.parse("{\"seed\":1,\"note\":\"a \\\"b\\\" \\n c\"}")};
        for (ApiEndpoint e : List.of(ApiEndpoint.CHAT, ApiEndpoint.COMPLETIONS, ApiEndpoint.RESPONSES,
                ApiEndpoint.MESSAGES)) {
            for (ThinkingMode m : ThinkingMode.values()) {
                for (String effort : new String[] {null, "low"}) {
                    for (String model : models) {
                        for (ExtraBody x : extras) {
                            out.add(new RequestBodyBuilder(model, 64, m, effort, e, x));
                        }
                    }
                }
            }
        }
        return out;
    }

    private static List<String> prompts() throws Exception {
        List<String> out = new ArrayList<>(List.of(ODD_PROMPTS));
        PromptBuilder plain = new PromptBuilder(0);
        PromptBuilder shared = new PromptBuilder(100, PromptBuilder.randomSalt("salt", new java.util.Random(7)));
        for (int i : new int[] {0, 1, 17, 1023, 99_999}) {
            out.add(plain.prompt(i, 256));
            out.add(shared.prompt(i, 300));
            out.add(shared.prompt(i, 4000));
        }
        return out;
    }

    @Test
    void aSyntheticBodyIsTheGeneratorsBytes() throws Exception {
        int compared = 0;
        for (RequestBodyBuilder b : builders()) {
            for (String p : prompts()) {
                byte[] generator = b.body(p);
                byte[] built = b.request(p, 3).buffer().getBytes();
                assertThat(new String(built, StandardCharsets.UTF_8))
                        .as("request body of prompt %s with %s", p, new String(generator, StandardCharsets.UTF_8))
                        .isEqualTo(new String(generator, StandardCharsets.UTF_8));
                assertThat(built).as("bytes of prompt %s", p).isEqualTo(generator);
                assertThat(b.request(p, 16, 3).buffer().getBytes()).as("with max_tokens 16, prompt %s", p)
                        .isEqualTo(b.body(p, 16));
                compared++;
            }
        }
        assertThat(compared).as("bodies compared").isGreaterThan(1000);
    }

    @Test
    void theSyntheticPromptsTakeTheTemplate() throws Exception {
        RequestBodyBuilder b = new RequestBodyBuilder("oracle", 64, ThinkingMode.DEFAULT, null);
        PromptBody t = PromptBody.of(p -> b.body(p));
        assertThat(t).as("template of the oracle's chat body").isNotNull();
        for (String p : prompts().subList(ODD_PROMPTS.length, prompts().size())) {
            assertThat(t.write(p)).as("a PromptBuilder prompt is written by the template: %s", p).isNotNull();
        }
        assertThat(t.write("caf\u00e9")).as("a non-ASCII prompt is left to the generator").isNull();
        assertThat(t.write("bell\u0007")).as("a \\u-escaped prompt is left to the generator").isNull();
    }

    @Test
    void noTemplateWhenThePromptIsNotOneStringOfTheBody() {
        assertThat(PromptBody.of(p -> "{\"a\":1}".getBytes(StandardCharsets.UTF_8)))
                .as("a body without the prompt").isNull();
        assertThat(PromptBody.of(p -> ("{\"a\":\"" + p + "\",\"b\":\"" + p + "\"}").getBytes(StandardCharsets.UTF_8)))
                .as("a body with the prompt twice").isNull();
        assertThat(PromptBody.of(p -> ("{\"a\":\"" + p + "\"}").getBytes(StandardCharsets.UTF_8)))
                .as("a writer that does not escape").isNull();
    }
}
