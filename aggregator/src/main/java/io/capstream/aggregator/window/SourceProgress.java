package io.capstream.aggregator.window;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * How far one input partition of {@code capstream.events} has been read, as the re-keying step tells the window
 * step in the headers of every record it writes to the repartition topic ({@link RekeyProcessor},
 * {@link TumblingWindowProcessor}).
 *
 * @param source    the input partition (the re-keying task's partition), &ge; 0
 * @param eventTime the largest event time (epoch ms) of the events of that partition re-keyed so far;
 *                  {@link Long#MIN_VALUE} when none yet
 * @param idle      true when the partition had nothing to read for a while (caught up): it does not hold windows
 *                  open until a record of it comes again
 */
record SourceProgress(int source, long eventTime, boolean idle) {
    /** Header with the source partition, 4 bytes big-endian. */
    static final String SOURCE_HEADER = "capstream.window.source";
    /** Header with the source's largest event time, 8 bytes big-endian. */
    static final String TIME_HEADER = "capstream.window.source-time";
    /** Header present (1 byte) when the source is idle. */
    static final String IDLE_HEADER = "capstream.window.source-idle";

    /**
     * @param base headers to copy (the input record's); not null
     * @return a copy of {@code base} without older progress headers, with this progress
     */
    Headers addTo(Headers base) {
        RecordHeaders h = new RecordHeaders();
        for (Header header : base) {
            String k = header.key();
            if (!SOURCE_HEADER.equals(k) && !TIME_HEADER.equals(k) && !IDLE_HEADER.equals(k)) {
                h.add(header);
            }
        }
        h.add(SOURCE_HEADER, ByteBuffer.allocate(4).putInt(source).array());
        h.add(TIME_HEADER, ByteBuffer.allocate(8).putLong(eventTime).array());
        if (idle) {
            h.add(IDLE_HEADER, new byte[] {1});
        }
        return h;
    }

    /**
     * @param headers a repartitioned record's headers; not null
     * @return the progress they carry; empty for records without it (written by a version before this one)
     *         or with malformed values
     */
    static Optional<SourceProgress> of(Headers headers) {
        Header s = headers.lastHeader(SOURCE_HEADER);
        Header t = headers.lastHeader(TIME_HEADER);
        if (s == null || t == null || s.value() == null || t.value() == null || s.value().length != 4
                || t.value().length != 8) {
            return Optional.empty();
        }
        int source = ByteBuffer.wrap(s.value()).getInt();
        if (source < 0) {
            return Optional.empty();
        }
        return Optional.of(new SourceProgress(source, ByteBuffer.wrap(t.value()).getLong(),
                headers.lastHeader(IDLE_HEADER) != null));
    }
}
