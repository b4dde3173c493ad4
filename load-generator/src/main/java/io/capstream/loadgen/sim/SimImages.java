package io.capstream.loadgen.sim;

import io.capstream.loadgen.images.ImageHeader;
import java.nio.charset.StandardCharsets;

/**
 * How the simulated engine charges images (issue 30). An image costs {@code ceil(W/28) × ceil(H/28)} prompt tokens
 * (at least 1), the count of a vision encoder that cuts 14-pixel patches and merges 2x2 of them into one token, as
 * Qwen2-VL does: 1,369 tokens for 1024x1024, 361 for 512x512. The engine reads W and H from the image's header (a
 * base64 {@code data:} URL of a PNG or JPEG; it fetches no remote URL and answers 400 for one).
 *
 * <p>An image enters the prompt text as a placeholder ({@code U+E000 WxH:HASH ~~~ U+E001}, about
 * {@code tokens × 3.4} characters, as an engine puts the image's tokens into the sequence), so the prefix cache and the
 * Responses history see the same image at the same place as the same text, and {@link #charge} finds it again:
 * {@code usage.prompt_tokens} is the text's estimate plus the images' tokens. Stateless.
 */
final class SimImages {
    /** Pixels per image token along each side (a 14-pixel patch, 2x2 merged). */
    static final int PIXELS_PER_TOKEN_SIDE = 28;
    /** Starts an image's placeholder in the prompt text (a private-use character). */
    static final char START = '\uE000';
    /** Ends an image's placeholder. */
    static final char END = '\uE001';

    private SimImages() {
    }

    /**
     * @param width  pixels, &gt;= 1
     * @param height pixels, &gt;= 1
     * @return the image's prompt tokens, {@code ceil(W/28) × ceil(H/28)}, at least 1
     */
    static long tokens(int width, int height) {
        long across = (width + PIXELS_PER_TOKEN_SIDE - 1) / PIXELS_PER_TOKEN_SIDE;
        long down = (height + PIXELS_PER_TOKEN_SIDE - 1) / PIXELS_PER_TOKEN_SIDE;
        return Math.max(1, across * down);
    }

    /**
     * @param url  an image's URL as a request gives it (chat {@code image_url.url}, Responses {@code image_url})
     * @param what the member named in the error
     * @return its placeholder
     * @throws IllegalArgumentException when it is not a base64 data URL of an image the engine can read
     */
    static String placeholderOfUrl(Object url, String what) {
        if (!(url instanceof String u) || !u.startsWith("data:") || u.indexOf(',') < 0
                || !u.substring(0, u.indexOf(',')).endsWith(";base64")) {
            throw new IllegalArgumentException(what + ": the simulated engine reads only base64 data: URLs"
                    + " (data:image/png;base64,...); it fetches no remote image");
        }
        return placeholder(u.substring(u.indexOf(',') + 1), what);
    }

    /**
     * @param base64 an encoded image in base64 (a Messages {@code source.data})
     * @param what   the member named in the error
     * @return its placeholder
     * @throws IllegalArgumentException when it is not base64 of a PNG or JPEG (or another image ImageIO reads)
     */
    static String placeholder(Object base64, String what) {
        int[] size = base64 instanceof String b ? ImageHeader.size(b.getBytes(StandardCharsets.ISO_8859_1)) : null;
        if (size == null || size[0] < 1 || size[1] < 1) {
            throw new IllegalArgumentException(what + ": not a base64-encoded PNG or JPEG image");
        }
        String head = START + Integer.toString(size[0]) + "x" + size[1] + ":"
                + Integer.toHexString(base64.hashCode());
        int chars = (int) Math.min(1 << 20, Math.round(tokens(size[0], size[1]) * TokenEstimator.CHARS_PER_TOKEN));
        StringBuilder sb = new StringBuilder(Math.max(chars, head.length() + 1)).append(head);
        while (sb.length() < chars - 1) {
            sb.append('~');
        }
        return sb.append(END).toString();
    }

    /**
     * The images in a prompt.
     *
     * @param images      placeholders found
     * @param tokens      their tokens, summed
     * @param placeholderChars their characters in the prompt, summed
     */
    record Charge(int images, long tokens, long placeholderChars) {
        /** No images. */
        static final Charge NONE = new Charge(0, 0, 0);

        /**
         * @param promptChars the prompt's length, characters
         * @return the prompt's tokens: the text's estimate ({@link TokenEstimator#tokens}, none when the prompt is
         *         only images) plus the images' tokens
         */
        int promptTokens(long promptChars) {
            long text = promptChars - placeholderChars;
            long t = images == 0 || text > 0 ? TokenEstimator.tokens(text) : 0;
            return (int) Math.min(Integer.MAX_VALUE, t + tokens);
        }
    }

    /**
     * @param prompt a prompt text with placeholders; not null
     * @return its images
     */
    static Charge charge(String prompt) {
        int at = prompt.indexOf(START);
        if (at < 0) {
            return Charge.NONE;
        }
        int n = 0;
        long tokens = 0;
        long chars = 0;
        while (at >= 0) {
            int x = prompt.indexOf('x', at);
            int colon = prompt.indexOf(':', at);
            int end = prompt.indexOf(END, at);
            if (x < 0 || colon < x || end < colon) {
                break;
            }
            try {
                tokens += tokens(Integer.parseInt(prompt.substring(at + 1, x)),
                        Integer.parseInt(prompt.substring(x + 1, colon)));
                n++;
                chars += end - at + 1;
            } catch (NumberFormatException e) {
                // a U+E000 of the user's own text: not an image
            }
            at = prompt.indexOf(START, end + 1);
        }
        return new Charge(n, tokens, chars);
    }
}
