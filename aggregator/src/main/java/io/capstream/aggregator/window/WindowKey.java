package io.capstream.aggregator.window;

import java.util.Objects;

/**
 * Grouping key of a windowed summary: target (base URL), model and context bucket. Encoded as
 * {@code target|model|bucket} (the Kafka key of the re-keyed events; summaries on the topic add
 * {@code |windowStartMs}).
 *
 * @param target target base URL; not null
 * @param model  model id; not null
 * @param bucket context bucket label, e.g. le4096; not null
 */
public record WindowKey(String target, String model, String bucket) {
    /** Separator of the encoded key. */
    public static final String SEP = "|";

    /** Validates. */
    public WindowKey {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(bucket, "bucket");
    }

    /** @return {@code target|model|bucket} */
    public String encode() {
        return target + SEP + model + SEP + bucket;
    }

    /** @return {@code target|model}, the key of alerts */
    public String targetModel() {
        return target + SEP + model;
    }

    /**
     * @param windowStartMs window start, epoch ms
     * @return the key of a summary record: {@code target|model|bucket|windowStartMs}
     */
    public String summaryKey(long windowStartMs) {
        return encode() + SEP + windowStartMs;
    }

    /**
     * Parses {@code target|model|bucket}; the target may itself contain {@code |} (the last two
     * separators delimit model and bucket).
     *
     * @param encoded the encoded key; not null
     * @return the key
     * @throws IllegalArgumentException when it has fewer than three parts
     */
    public static WindowKey decode(String encoded) {
        int b = encoded.lastIndexOf(SEP);
        int m = b <= 0 ? -1 : encoded.lastIndexOf(SEP, b - 1);
        if (m < 0) {
            throw new IllegalArgumentException("not a window key (target|model|bucket): " + encoded);
        }
        return new WindowKey(encoded.substring(0, m), encoded.substring(m + 1, b), encoded.substring(b + 1));
    }
}
