package io.capstream.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.capstream.loadgen.conversation.ConversationBodies;
import io.capstream.loadgen.conversation.HistoryItem;
import io.capstream.loadgen.conversation.InputMessage;
import io.capstream.loadgen.images.EncodedImage;
import io.capstream.loadgen.images.ImagePool;
import io.capstream.loadgen.images.ImageStats;
import io.capstream.loadgen.images.ImageSize;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Request bodies with synthetic images (issue 30): each API's content parts, spliced base64, the images' stats. */
class RequestBodyImagesTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ImagePool POOL = ImagePool.build(2,
            List.of(new ImageSize(32, 32), new ImageSize(64, 16)), "png", 9, 8);

    private static JsonNode body(ApiEndpoint endpoint, int index) throws Exception {
        RequestBody b = new RequestBodyBuilder("m", 16, ThinkingMode.DEFAULT, null, endpoint, null).withImages(POOL)
                .request("describe # request " + index + ":", index);
        List<EncodedImage> images = POOL.forMessage(index);
        assertThat(b.images()).as("stats of request %d", index).isEqualTo(new ImageStats(2,
                images.get(0).encodedBytes() + images.get(1).encodedBytes(), 32 * 32 + 64 * 16));
        return MAPPER.readTree(b.buffer().getBytes());
    }

    @Test
    void chatSendsTextThenImageUrlParts() throws Exception {
        JsonNode b = body(ApiEndpoint.CHAT, 3);
        List<EncodedImage> images = POOL.forMessage(3);
        JsonNode content = b.at("/messages/0/content");
        assertThat(b.at("/messages/0/role").asText()).isEqualTo("user");
        assertThat(content.toString()).as("chat content").isEqualTo(MAPPER.createArrayNode()
                .add(MAPPER.createObjectNode().put("type", "text").put("text", "describe # request 3:"))
                .add(MAPPER.createObjectNode().put("type", "image_url").set("image_url",
                        MAPPER.createObjectNode().put("url", images.get(0).dataUrl())))
                .add(MAPPER.createObjectNode().put("type", "image_url").set("image_url",
                        MAPPER.createObjectNode().put("url", images.get(1).dataUrl()))).toString());
        assertThat(b.get("max_tokens").asInt()).isEqualTo(16);
        assertThat(b.get("stream").asBoolean()).as("the members after the messages").isTrue();
        assertThat(b.at("/stream_options/include_usage").asBoolean()).isTrue();
    }

    @Test
    void responsesSendsOneUserMessageItemWithInputImageParts() throws Exception {
        JsonNode b = body(ApiEndpoint.RESPONSES, 0);
        List<EncodedImage> images = POOL.forMessage(0);
        assertThat(b.get("input").toString()).as("responses input").isEqualTo(MAPPER.createArrayNode()
                .add(MAPPER.createObjectNode().put("type", "message").put("role", "user").set("content",
                        MAPPER.createArrayNode()
                                .add(MAPPER.createObjectNode().put("type", "input_text")
                                        .put("text", "describe # request 0:"))
                                .add(MAPPER.createObjectNode().put("type", "input_image")
                                        .put("image_url", images.get(0).dataUrl()))
                                .add(MAPPER.createObjectNode().put("type", "input_image")
                                        .put("image_url", images.get(1).dataUrl())))).toString());
        assertThat(b.get("max_output_tokens").asInt()).isEqualTo(16);
    }

    @Test
    void messagesSendsBase64ImageBlocks() throws Exception {
        JsonNode b = body(ApiEndpoint.MESSAGES, 1);
        EncodedImage second = POOL.forMessage(1).get(1);
        JsonNode block = b.at("/messages/0/content/2");
        assertThat(b.at("/messages/0/content/0/type").asText()).isEqualTo("text");
        assertThat(block.toString()).as("the second image block").isEqualTo(MAPPER.createObjectNode()
                .put("type", "image").set("source", MAPPER.createObjectNode().put("type", "base64")
                        .put("media_type", "image/png").put("data", new String(second.base64()))).toString());
        assertThat(b.get("max_tokens").asInt()).isEqualTo(16);
    }

    @Test
    void withoutImagesOrForCompletionsTheBodyIsTheTextOne() throws Exception {
        RequestBodyBuilder plain = new RequestBodyBuilder("m", 16, ThinkingMode.DEFAULT, null);
        RequestBody b = plain.request("hi", 0);
        assertThat(b.images()).isEqualTo(ImageStats.NONE);
        assertThat(b.buffer().getBytes()).as("no pool: body(prompt)").isEqualTo(plain.body("hi"));
        RequestBodyBuilder completions = new RequestBodyBuilder("m", 16, ThinkingMode.DEFAULT, null,
                ApiEndpoint.COMPLETIONS, null);
        assertThat(completions.withImages(POOL).request("hi", 0).buffer().getBytes()).as("completions")
                .isEqualTo(completions.body("hi"));
    }

    @Test
    void conversationTurnsCarryEachUserMessagesImages() throws Exception {
        EncodedImage a = POOL.slot(0);
        EncodedImage c = POOL.slot(2);
        List<HistoryItem> history = List.of(
                new HistoryItem.Input(List.of(new InputMessage("user", "first", List.of(a)))),
                new HistoryItem.Input(List.of(new InputMessage("user", "second", List.of(c)))));
        for (ApiEndpoint api : List.of(ApiEndpoint.CHAT, ApiEndpoint.RESPONSES, ApiEndpoint.MESSAGES)) {
            var writer = ConversationBodies.forEndpoint(api, "m", ThinkingMode.DEFAULT, null, null, null, null);
            RequestBody body = writer.request(history, 8, null);
            assertThat(body.images()).as("%s stats", api).isEqualTo(new ImageStats(2,
                    a.encodedBytes() + c.encodedBytes(), 2L * 32 * 32));
            assertThat(body.buffer().getBytes()).as("%s: spliced buffer = copied bytes", api)
                    .isEqualTo(writer.body(history, 8, null));
            String json = MAPPER.readTree(body.buffer().getBytes()).toString();
            assertThat(json).as("%s body", api).contains(new String(a.base64())).contains(new String(c.base64()));
        }
        JsonNode chat = MAPPER.readTree(ConversationBodies.forEndpoint(ApiEndpoint.CHAT, "m", ThinkingMode.DEFAULT,
                null, null, null, null).body(history, 8, null));
        assertThat(chat.at("/messages/1/content/1/image_url/url").asText()).isEqualTo(c.dataUrl());
        JsonNode messages = MAPPER.readTree(ConversationBodies.forEndpoint(ApiEndpoint.MESSAGES, "m",
                ThinkingMode.DEFAULT, null, null, null, null).body(history, 8, null));
        assertThat(messages.at("/messages/0/content").toString()).as("two user inputs merged into one message")
                .contains("\"first\"", "\"second\"");
        assertThat(messages.at("/messages/0/content/1/type").asText()).isEqualTo("image");
    }
}
