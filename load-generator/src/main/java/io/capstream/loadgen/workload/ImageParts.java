package io.capstream.loadgen.workload;

import com.fasterxml.jackson.core.JsonGenerator;
import io.capstream.loadgen.images.EncodedImage;
import java.io.IOException;
import java.util.List;

/**
 * Writes a user message's content with images (issue 30) in each API's form, the text first, then the images:
 * <ul>
 * <li>chat: {@code [{"type":"text","text":..}, {"type":"image_url","image_url":{"url":"data:image/png;base64,.."}}]};</li>
 * <li>Responses: {@code [{"type":"input_text","text":..}, {"type":"input_image","image_url":"data:.."}]};</li>
 * <li>Messages: {@code [{"type":"text","text":..}, {"type":"image","source":{"type":"base64",
 * "media_type":"image/png","data":".."}}]}.</li>
 * </ul>
 * The base64 text is spliced into the {@link SegmentedBody} the generator writes to, not copied. Stateless.
 */
public final class ImageParts {
    private ImageParts() {
    }

    /**
     * Writes the value of a user message's {@code content}: the text part, then one part per image.
     *
     * @param g        a generator writing to {@code out}, where a value is expected
     * @param out      the body the generator writes to; not null
     * @param endpoint chat, responses or messages; not null
     * @param text     the message's text; not null
     * @param images   its images, in order; not empty
     * @throws IOException from the generator
     */
    public static void content(JsonGenerator g, SegmentedBody out, ApiEndpoint endpoint, String text,
                               List<EncodedImage> images) throws IOException {
        g.writeStartArray();
        g.writeStartObject();
        g.writeStringField("type", endpoint == ApiEndpoint.RESPONSES ? "input_text" : "text");
        g.writeStringField("text", text);
        g.writeEndObject();
        for (EncodedImage image : images) {
            part(g, out, endpoint, image);
        }
        g.writeEndArray();
    }

    /**
     * A Messages API {@code image} block (issue 30).
     *
     * @param g     a generator writing to {@code out}, where a value is expected
     * @param out   the body the generator writes to; not null
     * @param image the image; not null
     * @throws IOException from the generator
     */
    public static void block(JsonGenerator g, SegmentedBody out, EncodedImage image) throws IOException {
        part(g, out, ApiEndpoint.MESSAGES, image);
    }

    /** One image's content part in the API's form. */
    private static void part(JsonGenerator g, SegmentedBody out, ApiEndpoint endpoint, EncodedImage image)
            throws IOException {
        g.writeStartObject();
        switch (endpoint) {
            case RESPONSES -> {
                g.writeStringField("type", "input_image");
                g.writeFieldName("image_url");
                spliced(g, out, image.dataUrlPrefix(), image);
            }
            case MESSAGES -> {
                g.writeStringField("type", "image");
                g.writeObjectFieldStart("source");
                g.writeStringField("type", "base64");
                g.writeStringField("media_type", image.mediaType());
                g.writeFieldName("data");
                spliced(g, out, "", image);
                g.writeEndObject();
            }
            default -> {
                g.writeStringField("type", "image_url");
                g.writeObjectFieldStart("image_url");
                g.writeFieldName("url");
                spliced(g, out, image.dataUrlPrefix(), image);
                g.writeEndObject();
            }
        }
        g.writeEndObject();
    }

    /** A string value {@code "<prefix><base64>"} whose base64 is spliced in (prefix: plain ASCII, nothing escaped). */
    private static void spliced(JsonGenerator g, SegmentedBody out, String prefix, EncodedImage image)
            throws IOException {
        g.writeRawValue("\"" + prefix);
        g.flush();
        out.splice(image.base64());
        g.writeRaw('"');
    }
}
