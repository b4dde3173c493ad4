package io.capstream.loadgen.images;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * One encoded image as a request carries it (issue 30): its base64 text, kept as ASCII bytes so that many requests
 * can share it without copying ({@link io.capstream.loadgen.workload.SegmentedBody}).
 *
 * @param mediaType     {@code image/png} or {@code image/jpeg}; not null
 * @param base64        the encoded image in base64 (RFC 4648, no line breaks), ASCII; not null, never modified
 * @param width         width, pixels
 * @param height        height, pixels
 * @param encodedBytes  the encoded image's size before base64, bytes
 */
public record EncodedImage(String mediaType, byte[] base64, int width, int height, int encodedBytes) {

    /**
     * @param format  {@code png} or {@code jpeg}
     * @param encoded the encoded image; not null
     * @param width   width, pixels
     * @param height  height, pixels
     * @return the image with its base64 text
     */
    public static EncodedImage of(String format, byte[] encoded, int width, int height) {
        return new EncodedImage("image/" + format, Base64.getEncoder().encode(encoded), width, height,
                encoded.length);
    }

    /** @return {@code data:<media type>;base64,} (what precedes {@link #base64} in a data URL) */
    public String dataUrlPrefix() {
        return "data:" + mediaType + ";base64,";
    }

    /** @return the whole data URL as a string (a copy; for tests and small images) */
    public String dataUrl() {
        return dataUrlPrefix() + new String(base64, StandardCharsets.US_ASCII);
    }

    /** @return width x height, pixels */
    public long pixels() {
        return (long) width * height;
    }
}
