package io.capstream.loadgen.run;

import io.capstream.loadgen.images.ImageSize;
import java.util.ArrayList;
import java.util.List;

/**
 * The payload group of a {@link RunConfig} (issue 30): what a request carries besides its text prompt. Synthetic
 * images in each user message of chat, responses and messages requests ({@code --images}, {@code --image-size},
 * {@code --image-format}), and the inputs per request of the embeddings and rerank endpoints ({@code --batch}).
 *
 * @param images      {@code --images}: synthetic images per user message, &gt;= 0 (0 = none)
 * @param imageSizes  {@code --image-size WxH[,WxH...]}: the sizes the images cycle through; empty when no images
 * @param imageFormat {@code --image-format}: {@code png} or {@code jpeg}; null = png
 * @param batch       {@code --batch}: inputs per embeddings request, documents per rerank request; null = the
 *                    endpoint's default ({@value #DEFAULT_BATCH})
 */
public record PayloadShape(int images, List<ImageSize> imageSizes, String imageFormat, Integer batch) {

    /** Default {@code --image-size}. */
    public static final ImageSize DEFAULT_IMAGE_SIZE = new ImageSize(512, 512);
    /**
     * Most bytes of raw pixels (3 per pixel) one request's images may hold: 512 MiB, e.g. 8 images of 4096x4096. The
     * encoded request is of that order (synthetic images compress little) and must stay far below Java's 2 GiB array
     * bound; no serving API takes requests near it.
     */
    public static final long MAX_REQUEST_IMAGE_BYTES = 512L << 20;
    /** Default {@code --batch}. */
    public static final int DEFAULT_BATCH = 1;
    /** Nothing besides the prompt. */
    public static final PayloadShape NONE = new PayloadShape(0, List.of(), null, null);


    /** Copies the sizes; a null list is none. */
    public PayloadShape {
        imageSizes = imageSizes == null ? List.of() : List.copyOf(imageSizes);
    }

    /** @return the sizes, or {@link #DEFAULT_IMAGE_SIZE} alone when none were given */
    public List<ImageSize> effectiveImageSizes() {
        return imageSizes.isEmpty() ? List.of(DEFAULT_IMAGE_SIZE) : imageSizes;
    }

    /** @return the image format: {@code imageFormat}, or {@code png} when null */
    public String effectiveImageFormat() {
        return imageFormat == null ? "png" : imageFormat;
    }

    /** @return the inputs per request: {@code batch}, or {@value #DEFAULT_BATCH} when null */
    public int effectiveBatch() {
        return batch == null ? DEFAULT_BATCH : batch;
    }

    /** @return the sizes as given, {@code WxH,WxH}, or null when no images */
    public String imageSizesText() {
        return images == 0 ? null : String.join(",", effectiveImageSizes().stream().map(ImageSize::toString).toList());
    }

    /**
     * The image options against the rest of the run (issue 30): images go into the user messages of chat, responses
     * and messages requests with synthetic prompts only, and the size and format need images to apply to.
     *
     * @param endpoint the run's API; not null
     * @param dataset  whether the run sends a {@code --dataset} (or a {@code --trace}'s prompts)
     * @return one usage error per problem; empty when valid; never null
     */
    public List<String> imageProblems(io.capstream.loadgen.workload.ApiEndpoint endpoint, boolean dataset) {
        List<String> errors = new ArrayList<>();
        if (images == 0) {
            if (!imageSizes.isEmpty() || imageFormat != null) {
                errors.add("--image-size and --image-format need --images N (images per user message)");
            }
            return errors;
        }
        switch (endpoint) {
            case CHAT, RESPONSES, MESSAGES -> {
            }
            default -> errors.add("--images applies to --endpoint chat, responses or messages (" + endpoint.label()
                    + " requests have no user messages)");
        }
        if (dataset) {
            errors.add("--images adds synthetic images to synthetic prompts: a --dataset's images are the image_url"
                    + " parts of its messages, sent as given");
        }
        return errors;
    }

    /** @return one usage error per problem; empty when valid; never null */
    public List<String> problems() {
        List<String> errors = new ArrayList<>();
        if (images < 0) {
            errors.add("--images must be >= 0, got " + images);
        }
        for (ImageSize s : imageSizes) {
            if (s.width() < 1 || s.height() < 1) {
                errors.add("--image-size must be WxH with both at least 1 pixel, got " + s);
            }
        }
        long largest = effectiveImageSizes().stream().mapToLong(z -> (long) Math.max(0, z.width()) * Math.max(0,
                z.height())).max().orElse(0);
        long requestBytes = images * largest * 3;
        if (images > 0 && requestBytes > MAX_REQUEST_IMAGE_BYTES) {
            // a fresh user's --images 16 --image-size 8192x8192 spent 114 s encoding 1.7 GB of images before T0, then
            // every request failed on a buffer past 2 GiB, with stack traces and no report
            errors.add(String.format(java.util.Locale.ROOT, "--images %d of --image-size %s make requests of up to"
                    + " %,d MiB of pixels (%d x %d pixels x 3 bytes), more than %d MiB: lower --images or --image-size",
                    images, imageSizesText(), requestBytes >> 20, images, largest, MAX_REQUEST_IMAGE_BYTES >> 20));
        }
        if (imageFormat != null && !imageFormat.equals("png") && !imageFormat.equals("jpeg")) {
            errors.add("--image-format must be png or jpeg, got '" + imageFormat + "'");
        }
        if (batch != null && batch < 1) {
            errors.add("--batch must be at least 1, got " + batch);
        }
        return errors;
    }
}
