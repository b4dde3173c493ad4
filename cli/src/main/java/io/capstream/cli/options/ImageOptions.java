package io.capstream.cli.options;

import io.capstream.loadgen.run.PayloadShape;
import io.capstream.loadgen.images.ImageSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The image options of {@code capstream run}, {@code generate} and {@code sweep} (issue 30): synthetic images in each
 * user message. Resolved into the image fields of a {@link PayloadShape} by {@link #applyTo}; the rules of the values
 * are {@link PayloadShape#problems()} and {@link PayloadShape#imageProblems}, checked before anything starts.
 */
public class ImageOptions {
    /** Largest accepted image side, pixels (a 16384x16384 RGB picture alone is 1 GB on the heap while drawn). */
    public static final int MAX_SIDE = 8192;

    @Option(names = "--images", paramLabel = "N",
            description = "Synthetic images added to each user message of chat, responses and messages requests,"
                    + " after its text, as data URLs (chat image_url parts, Responses input_image parts, Messages"
                    + " base64 image blocks). Seeded pictures (--seed), drawn and encoded once before T0; each"
                    + " request event records images, image_bytes (encoded, before base64) and image_pixels."
                    + " Default: 0 (none).")
    int images;

    @Option(names = "--image-size", paramLabel = "WxH[,WxH...]",
            description = "Image sizes in pixels, e.g. 1024x1024 or 512x512,1024x768: a run's images cycle through"
                    + " them. Each side 1.." + MAX_SIDE + ". Default: 512x512.")
    String imageSize;

    @Option(names = "--image-format", paramLabel = "png|jpeg",
            description = "Image encoding (the JDK's ImageIO: PNG, or JPEG at quality 0.75). Default: png.")
    String imageFormat;

    /**
     * @param payload the payload group so far (e.g. with a {@code --batch}); not null
     * @return it with the image options
     * @throws IllegalArgumentException for an {@code --image-size} that is not {@code WxH[,WxH...]} (usage error)
     */
    public PayloadShape applyTo(PayloadShape payload) {
        String format = imageFormat == null ? null : imageFormat.trim().toLowerCase(Locale.ROOT);
        if ("jpg".equals(format)) {
            format = "jpeg";
        }
        return new PayloadShape(images, imageSize == null ? List.of() : parseSizes(imageSize), format,
                payload.batch());
    }

    /**
     * @param text {@code WxH[,WxH...]}, e.g. {@code 1024x1024,512x384}
     * @return the sizes, in order
     * @throws IllegalArgumentException with a one-line usage error when the text is not that, or a side is above
     *         {@value #MAX_SIDE} (a side of 0 parses and is refused by {@link PayloadShape#problems()})
     */
    public static List<ImageSize> parseSizes(String text) {
        List<ImageSize> sizes = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            int x = p.indexOf('x');
            if (x < 1 || x == p.length() - 1 || !p.substring(0, x).matches("\\d{1,9}")
                    || !p.substring(x + 1).matches("\\d{1,9}")) {
                throw new IllegalArgumentException("--image-size must be WxH[,WxH...] in whole pixels, e.g. 1024x1024"
                        + " or 512x512,1024x768, got '" + text + "'");
            }
            int w = Integer.parseInt(p.substring(0, x));
            int h = Integer.parseInt(p.substring(x + 1));
            if (w > MAX_SIDE || h > MAX_SIDE) {
                throw new IllegalArgumentException("--image-size sides must be at most " + MAX_SIDE + " pixels, got "
                        + w + "x" + h);
            }
            sizes.add(new ImageSize(w, h));
        }
        return sizes;
    }
}
