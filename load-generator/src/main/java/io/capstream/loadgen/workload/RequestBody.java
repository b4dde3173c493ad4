package io.capstream.loadgen.workload;

import io.capstream.loadgen.images.ImageStats;
import io.vertx.core.buffer.Buffer;

/**
 * A request's body ready to send, with what its images add up to (issue 30; {@link ImageStats#NONE} without images),
 * for its event.
 *
 * @param buffer the UTF-8 JSON body; not null
 * @param images the images in it; not null
 */
public record RequestBody(Buffer buffer, ImageStats images) {
    /**
     * @param bytes a body without images
     * @return it, with no images
     */
    public static RequestBody of(byte[] bytes) {
        return new RequestBody(Buffer.buffer(bytes), ImageStats.NONE);
    }
}
