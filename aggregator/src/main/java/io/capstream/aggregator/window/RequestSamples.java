package io.capstream.aggregator.window;

import io.capstream.schemas.avro.RequestCompleted;
import java.util.Optional;

/**
 * A completed request's {@link RequestSample}, from its spec §7 row as computed by the report's
 * row code.
 */
public final class RequestSamples {
    private RequestSamples() {
    }

    /**
     * @param completed the event; not null
     * @return its values, or empty when the request fails the §7 validity filter (no row)
     */
    public static Optional<RequestSample> from(RequestCompleted completed) {
        throw new UnsupportedOperationException("TODO: delegate to the report row code");
    }
}
