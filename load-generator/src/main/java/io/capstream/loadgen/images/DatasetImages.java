package io.capstream.loadgen.images;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Counts the images a {@code --dataset} entry's messages carry (issue 30), which the run sends as given: chat
 * {@code image_url} parts ({@code {"type":"image_url","image_url":{"url":..}}} or a plain string URL) and Responses
 * {@code input_image} parts. A {@code data:} URL's bytes are its decoded length and its pixels are read from the
 * image's header by ImageIO (without decoding the picture); a remote URL's bytes count 0 and its pixels are unknown.
 * Stateless.
 */
public final class DatasetImages {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private DatasetImages() {
    }

    /**
     * @param messagesJson a dataset entry's messages, a JSON array; not null
     * @return the images in its messages' content parts ({@link ImageStats#NONE} when none or not JSON)
     */
    public static ImageStats count(String messagesJson) {
        if (!messagesJson.contains("image")) {
            return ImageStats.NONE;
        }
        JsonNode messages;
        try {
            messages = MAPPER.readTree(messagesJson);
        } catch (IOException e) {
            return ImageStats.NONE;
        }
        ImageStats stats = ImageStats.NONE;
        for (JsonNode m : messages) {
            for (JsonNode part : m.path("content")) {
                String type = part.path("type").asText();
                JsonNode url = "image_url".equals(type) || "input_image".equals(type) ? part.path("image_url") : null;
                if (url == null) {
                    continue;
                }
                String u = url.isTextual() ? url.textValue() : url.path("url").asText("");
                stats = stats.plus(one(u));
            }
        }
        return stats;
    }

    /** @return one image's stats: a data URL's decoded bytes and pixels, a remote URL's unknown */
    static ImageStats one(String url) {
        int comma = url.indexOf(',');
        if (!url.startsWith("data:") || comma < 0 || !url.substring(0, comma).endsWith(";base64")) {
            return new ImageStats(1, 0, -1);
        }
        byte[] b64 = url.substring(comma + 1).getBytes(StandardCharsets.US_ASCII);
        int pad = 0;
        for (int i = b64.length - 1; i >= 0 && b64[i] == '='; i--) {
            pad++;
        }
        long bytes = Math.max(0, b64.length * 3L / 4 - pad);
        return new ImageStats(1, bytes, pixels(b64));
    }

    /** @return the image's width x height from its header, or -1 when ImageIO cannot read it */
    private static long pixels(byte[] base64) {
        int[] size = ImageHeader.size(base64);
        return size == null ? -1 : (long) size[0] * size[1];
    }
}
