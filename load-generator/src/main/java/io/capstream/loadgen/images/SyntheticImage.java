package io.capstream.loadgen.images;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;

/**
 * Draws one seeded synthetic picture and encodes it with the JDK's {@link ImageIO} (issue 30). The picture is a grid
 * of {@value #BLOCK}-pixel blocks, each a linear gradient between two seeded colours (across or down the block), with
 * seeded noise of &plusmn;{@value #NOISE} per channel on every 2x2-pixel cell: it neither compresses to nothing (a 1024x1024 PNG
 * is about 1.5 MB, a JPEG at ImageIO's default quality about 90 kB) nor is it pure
 * noise. The same seed and size always give the same bytes. Stateless.
 */
public final class SyntheticImage {
    /** Block edge, pixels. */
    static final int BLOCK = 32;
    /** Noise amplitude per channel, 0..255 levels. */
    static final int NOISE = 3;

    private SyntheticImage() {
    }

    /**
     * @param size the size; both at least 1 pixel
     * @param seed the picture's seed
     * @return the picture, {@link BufferedImage#TYPE_INT_RGB}
     */
    public static BufferedImage draw(ImageSize size, long seed) {
        int w = size.width();
        int h = size.height();
        SplittableRandom rng = new SplittableRandom(seed);
        int bw = (w + BLOCK - 1) / BLOCK;
        int bh = (h + BLOCK - 1) / BLOCK;
        int[] from = new int[bw * bh];
        int[] to = new int[bw * bh];
        boolean[] across = new boolean[bw * bh];
        for (int b = 0; b < from.length; b++) {
            from[b] = rng.nextInt(0x1000000);
            to[b] = rng.nextInt(0x1000000);
            across[b] = rng.nextBoolean();
        }
        int[] row = new int[w];
        int[] cellNoise = new int[(w + 1) / 2];
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) {
            if (y % 2 == 0) {
                for (int c = 0; c < cellNoise.length; c++) {
                    cellNoise[c] = rng.nextInt();
                }
            }
            for (int x = 0; x < w; x++) {
                int b = (y / BLOCK) * bw + x / BLOCK;
                int t = across[b] ? x % BLOCK : y % BLOCK;
                int noise = cellNoise[x / 2];
                int rgb = 0;
                for (int shift = 16; shift >= 0; shift -= 8) {
                    int c0 = (from[b] >> shift) & 0xff;
                    int c1 = (to[b] >> shift) & 0xff;
                    int v = c0 + (c1 - c0) * t / (BLOCK - 1) + ((noise >>> shift) & 0xff) % (2 * NOISE + 1) - NOISE;
                    rgb = (rgb << 8) | Math.max(0, Math.min(255, v));
                }
                row[x] = rgb;
            }
            img.setRGB(0, y, w, 1, row, 0, w);
        }
        return img;
    }

    /**
     * @param size   the size; both at least 1 pixel
     * @param seed   the picture's seed
     * @param format {@code png} or {@code jpeg}
     * @return the encoded image (ImageIO's default settings: PNG deflate, JPEG quality 0.75)
     * @throws IllegalArgumentException for another format
     */
    public static byte[] encode(ImageSize size, long seed, String format) {
        if (!"png".equals(format) && !"jpeg".equals(format)) {
            throw new IllegalArgumentException("image format must be png or jpeg, got '" + format + "'");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size.width() * size.height());
        try {
            if (!ImageIO.write(draw(size, seed), format, out)) {
                throw new IllegalStateException("no ImageIO writer for " + format);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
