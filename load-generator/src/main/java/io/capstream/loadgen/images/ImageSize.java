package io.capstream.loadgen.images;

/**
 * One image size, pixels ({@code --image-size WxH}, issue 30).
 *
 * @param width  width, pixels
 * @param height height, pixels
 */
public record ImageSize(int width, int height) {
    /** @return {@code WxH} */
    @Override
    public String toString() {
        return width + "x" + height;
    }
}
