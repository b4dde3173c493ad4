package io.capstream.loadgen.images;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;

/**
 * Reads an encoded image's width and height from its header with ImageIO, without decoding the picture (issue 30).
 * Stateless.
 */
public final class ImageHeader {
    private ImageHeader() {
    }

    /**
     * @param base64 an encoded image (PNG, JPEG, GIF, BMP: what ImageIO reads) in base64, ASCII; not null
     * @return {@code {width, height}} in pixels, or null when it is not base64 of an image ImageIO knows
     */
    public static int[] size(byte[] base64) {
        try (InputStream in = Base64.getDecoder().wrap(new ByteArrayInputStream(base64));
             ImageInputStream iis = ImageIO.createImageInputStream(in)) {
            Iterator<ImageReader> readers = iis == null ? null : ImageIO.getImageReaders(iis);
            if (readers == null || !readers.hasNext()) {
                return null;
            }
            ImageReader r = readers.next();
            try {
                r.setInput(iis, true, true);
                return new int[] {r.getWidth(0), r.getHeight(0)};
            } finally {
                r.dispose();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
