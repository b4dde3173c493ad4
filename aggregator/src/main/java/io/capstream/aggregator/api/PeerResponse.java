package io.capstream.aggregator.api;

import io.vertx.core.buffer.Buffer;
import java.util.Objects;

/**
 * An HTTP answer, from another aggregator instance or made here, that the API passes on as it is.
 *
 * @param status      HTTP status code
 * @param contentType the content type, or null when the answer named none
 * @param body        the body; not null
 */
public record PeerResponse(int status, String contentType, Buffer body) {
    /** Validates. */
    public PeerResponse {
        Objects.requireNonNull(body, "body");
    }
}
