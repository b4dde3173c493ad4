package io.capstream.loadgen.sim;

import static io.capstream.loadgen.sim.SimFrames.array;
import static io.capstream.loadgen.sim.SimFrames.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.capstream.loadgen.images.EncodedImage;
import io.capstream.loadgen.images.SyntheticImage;
import io.capstream.loadgen.images.ImageSize;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sim's image parts (issue 30): each API's form accepted, prefill charged ceil(W/28) x ceil(H/28) per image. */
class SimImagesTest {
    /** 100x60: ceil(100/28) x ceil(60/28) = 4 x 3 = 12 tokens. */
    private static final EncodedImage IMAGE = EncodedImage.of("png",
            SyntheticImage.encode(new ImageSize(100, 60), 1, "png"), 100, 60);
    /** 340 characters: 100 tokens. */
    private static final String TEXT = text("look", 340);

    @RegisterExtension
    final SimFixture fixture = new SimFixture(5000);

    @Test
    void tokensPerImageArePatchesOf28Pixels() {
        assertThat(SimImages.tokens(1024, 1024)).as("1024x1024").isEqualTo(37L * 37);
        assertThat(SimImages.tokens(512, 512)).as("512x512").isEqualTo(19L * 19);
        assertThat(SimImages.tokens(100, 60)).as("100x60").isEqualTo(12);
        assertThat(SimImages.tokens(1, 1)).as("1x1").isEqualTo(1);
    }

    @Test
    void chatImagePartsAreChargedInPromptTokensAndCounted() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        JsonObject content = new JsonObject().put("type", "image_url")
                .put("image_url", new JsonObject().put("url", IMAGE.dataUrl()));
        JsonObject body = new JsonObject().put("model", "capstream-sim").put("max_tokens", 4)
                .put("messages", array(new JsonObject().put("role", "user").put("content", array(
                        new JsonObject().put("type", "text").put("text", TEXT), content, content))));
        SimFrames.Answer a = fixture.post(sim, "/v1/chat/completions", body);
        assertThat(a.status()).as("answer %s", a.body()).isEqualTo(200);
        JsonObject usage = new JsonObject(a.body()).getJsonObject("usage");
        assertThat(usage.getInteger("prompt_tokens")).as("100 text + 2 x 12 image tokens: %s", usage)
                .isEqualTo(124);
        assertThat(sim.stats().images()).as("images seen").isEqualTo(2);
        assertThat(sim.stats().imageTokens()).as("image tokens charged").isEqualTo(24);
    }

    @Test
    void responsesAndMessagesImagePartsAreChargedToo() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        JsonObject responses = new JsonObject().put("model", "capstream-sim").put("max_output_tokens", 4)
                .put("input", array(new JsonObject().put("type", "message").put("role", "user").put("content", array(
                        new JsonObject().put("type", "input_text").put("text", TEXT),
                        new JsonObject().put("type", "input_image").put("image_url", IMAGE.dataUrl())))));
        SimFrames.Answer r = fixture.post(sim, "/v1/responses", responses);
        assertThat(r.status()).as("responses %s", r.body()).isEqualTo(200);
        assertThat(new JsonObject(r.body()).getJsonObject("usage").getInteger("input_tokens"))
                .as("responses usage %s", r.body()).isEqualTo(112);
        JsonObject messages = new JsonObject().put("model", "capstream-sim").put("max_tokens", 4)
                .put("messages", array(new JsonObject().put("role", "user").put("content", array(
                        new JsonObject().put("type", "text").put("text", text("other", 340)),
                        new JsonObject().put("type", "image").put("source", new JsonObject().put("type", "base64")
                                .put("media_type", "image/png").put("data", new String(IMAGE.base64())))))));
        SimFrames.Answer m = fixture.post(sim, "/v1/messages", messages);
        assertThat(m.status()).as("messages %s", m.body()).isEqualTo(200);
        JsonObject usage = new JsonObject(m.body()).getJsonObject("usage");
        assertThat(usage.getInteger("input_tokens") + usage.getInteger("cache_read_input_tokens"))
                .as("messages usage %s", usage).isEqualTo(112);
        assertThat(sim.stats().images()).isEqualTo(2);
    }

    @Test
    void aRemoteUrlOrABrokenImageIsABadRequestThatSaysWhy() throws Exception {
        SimEngine sim = fixture.start(SimConfig.builder());
        JsonObject remote = new JsonObject().put("model", "capstream-sim").put("max_tokens", 4)
                .put("messages", array(new JsonObject().put("role", "user").put("content", array(
                        new JsonObject().put("type", "image_url")
                                .put("image_url", new JsonObject().put("url", "https://example.com/cat.png"))))));
        SimFrames.Answer a = fixture.post(sim, "/v1/chat/completions", remote);
        assertThat(a.status()).isEqualTo(400);
        assertThat(a.body()).contains("image_url: the simulated engine reads only base64 data: URLs");
        JsonObject broken = new JsonObject().put("model", "capstream-sim").put("max_tokens", 4)
                .put("messages", array(new JsonObject().put("role", "user").put("content", array(
                        new JsonObject().put("type", "image_url")
                                .put("image_url", new JsonObject().put("url", "data:image/png;base64,AAAA"))))));
        SimFrames.Answer b = fixture.post(sim, "/v1/chat/completions", broken);
        assertThat(b.status()).isEqualTo(400);
        assertThat(b.body()).contains("image_url: not a base64-encoded PNG or JPEG image");
    }
}
