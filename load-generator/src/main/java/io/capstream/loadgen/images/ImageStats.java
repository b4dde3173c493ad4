package io.capstream.loadgen.images;

/**
 * What the images of one request add up to (issue 30): the {@code images}, {@code image_bytes} and
 * {@code image_pixels} of its event.
 *
 * @param images       images in the request, &gt;= 0
 * @param encodedBytes their encoded size before base64, summed, bytes
 * @param pixels       their pixels summed; -1 when some image's size is unknown (a dataset's remote URL)
 */
public record ImageStats(int images, long encodedBytes, long pixels) {
    /** No images. */
    public static final ImageStats NONE = new ImageStats(0, 0, 0);

    /**
     * @param image one more image; not null
     * @return these stats with it
     */
    public ImageStats plus(EncodedImage image) {
        return new ImageStats(images + 1, encodedBytes + image.encodedBytes(),
                pixels < 0 ? -1 : pixels + image.pixels());
    }

    /**
     * @param other more images; not null
     * @return the sum (pixels unknown when either's are)
     */
    public ImageStats plus(ImageStats other) {
        return new ImageStats(images + other.images, encodedBytes + other.encodedBytes,
                pixels < 0 || other.pixels < 0 ? -1 : pixels + other.pixels);
    }
}
