package io.capstream.loadgen.images;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The synthetic images of a run ({@code --images N --image-size WxH[,WxH...] --image-format}, issue 30), encoded once
 * before T0 and shared by every request that carries them, so that neither the event loops nor the measured times pay
 * for encoding, and the heap holds each image once however many requests are in flight.
 *
 * <p>Image {@code j} (0-based) of the user message of request {@code i} is <em>slot</em> {@code s = i·N + j}. Its size
 * is {@code sizes[s mod S]} (the sizes cycle over the run's images) and its picture is entry
 * {@code (s div S) mod K} of that size, drawn by {@link SyntheticImage} from the seed
 * {@code mix(run seed, width, height, entry)}. {@code K} is the number of distinct pictures per size: as many as the
 * run's requests need (no picture repeats), but at most {@value #MAX_PICTURES_PER_SIZE} and what fits
 * {@value #BUDGET_BYTES} bytes of base64 over all sizes, and at least enough that one message's images all differ. A run with more images than that reuses
 * pictures every {@code K·S} slots: a server with an encoder or image cache may then skip work for a repeated picture
 * (the images follow each message's text, whose tail differs per request, so a text prefix cache does not reach them).
 * Immutable, thread-safe.
 */
public final class ImagePool {
    /** Encoded images kept per run at most (unless one message's images need more), bytes. */
    public static final long BUDGET_BYTES = 48L << 20;
    /**
     * Distinct pictures per size at most (unless one message's images need more): encoding is the cost before T0
     * (a 1024x1024 PNG takes 0.3-0.7 s of one core here).
     */
    public static final int MAX_PICTURES_PER_SIZE = 16;

    private final int perMessage;
    private final String format;
    private final List<ImageSize> sizes;
    private final EncodedImage[][] pictures;
    private final long encodeNs;

    private ImagePool(int perMessage, String format, List<ImageSize> sizes, EncodedImage[][] pictures,
                      long encodeNs) {
        this.perMessage = perMessage;
        this.format = format;
        this.sizes = sizes;
        this.pictures = pictures;
        this.encodeNs = encodeNs;
    }

    /**
     * Draws and encodes the run's pictures (on the calling thread and the common fork-join pool: call it before T0,
     * never on an event loop).
     *
     * @param n        {@code --images}: images per user message, &gt; 0
     * @param sizes    the sizes the images cycle through (the run's effective {@code --image-size}); not empty
     * @param format   {@code png} or {@code jpeg}
     * @param seed     the run's {@code --seed}
     * @param requests the requests the run sends (its slots are {@code requests·N}), or 0 when not known in advance
     *                 (a duration-bound run)
     * @return the pool
     */
    public static ImagePool build(int n, List<ImageSize> sizes, String format, long seed, long requests) {
        if (n < 1) {
            throw new IllegalArgumentException("no images to build: --images " + n);
        }
        int s = sizes.size();
        long started = System.nanoTime();
        EncodedImage[][] pictures = new EncodedImage[s][];
        long perSizeBudget = BUDGET_BYTES / s;
        int atLeast = (n + s - 1) / s;
        long needed = requests > 0 ? (requests * n + s - 1) / s : Long.MAX_VALUE;
        for (int si = 0; si < s; si++) {
            ImageSize size = sizes.get(si);
            EncodedImage first = encode(size, seed, 0, format);
            long fit = Math.min(MAX_PICTURES_PER_SIZE, Math.max(1, perSizeBudget / Math.max(1, first.base64().length)));
            int k = (int) Math.max(atLeast, Math.min(Math.min(needed, fit), Integer.MAX_VALUE - 8));
            EncodedImage[] entries = new EncodedImage[k];
            entries[0] = first;
            IntStream.range(1, k).parallel().forEach(e -> entries[e] = encode(size, seed, e, format));
            pictures[si] = entries;
        }
        return new ImagePool(n, format, List.copyOf(sizes), pictures, System.nanoTime() - started);
    }

    private static EncodedImage encode(ImageSize size, long seed, int entry, String format) {
        long pictureSeed = mix(mix(mix(seed ^ 0x1ea9e5L, size.width()), size.height()), entry);
        return EncodedImage.of(format, SyntheticImage.encode(size, pictureSeed, format), size.width(), size.height());
    }

    /** A 64-bit mix of {@code h} and {@code v} (SplitMix64's finaliser). */
    static long mix(long h, long v) {
        long z = h * 0x9E3779B97F4A7C15L + v;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * @param request the request's index (&gt;= 0; warm-up requests have indices past the run's)
     * @return the {@code N} images of its user message, in order
     */
    public List<EncodedImage> forMessage(int request) {
        List<EncodedImage> list = new ArrayList<>(perMessage);
        for (int j = 0; j < perMessage; j++) {
            list.add(slot((long) request * perMessage + j));
        }
        return list;
    }

    /**
     * @param slot an image slot, {@code request·N + j}, &gt;= 0
     * @return its image
     */
    public EncodedImage slot(long slot) {
        int s = sizes.size();
        EncodedImage[] entries = pictures[(int) (slot % s)];
        return entries[(int) ((slot / s) % entries.length)];
    }

    /** @return images per user message ({@code --images}) */
    public int perMessage() {
        return perMessage;
    }

    /** @return {@code png} or {@code jpeg} */
    public String format() {
        return format;
    }

    /** @return distinct pictures held, over all sizes */
    public int distinct() {
        int d = 0;
        for (EncodedImage[] e : pictures) {
            d += e.length;
        }
        return d;
    }

    /** @return encoded bytes held (before base64), over all pictures */
    public long encodedBytes() {
        long b = 0;
        for (EncodedImage[] entries : pictures) {
            for (EncodedImage e : entries) {
                b += e.encodedBytes();
            }
        }
        return b;
    }

    /** @return the time {@link #build} took (drawing and encoding every picture), ns */
    public long encodeNs() {
        return encodeNs;
    }

    /** @return a one-line account: how many pictures, of what, how large, how long they took */
    public String summary() {
        return String.format(java.util.Locale.ROOT,
                "images: %d distinct %s picture(s) of %s encoded before T0 in %.1f s (%.1f MB, %,d bytes each on"
                        + " average); %d per user message",
                distinct(), format, String.join(",", sizes.stream().map(ImageSize::toString).toList()),
                encodeNs / 1e9, encodedBytes() / 1e6, encodedBytes() / Math.max(1, distinct()), perMessage);
    }
}
