package io.capstream.loadgen.client;

import java.util.Arrays;
import java.util.List;

/**
 * The arrival times of a request's output chunks (reasoning or content), delta-encoded: gap {@code i} is
 * the time from output chunk {@code i} to output chunk {@code i + 1}, in microseconds (the first output
 * chunk is at TTFO). These are the per-token inter-token latencies of vLLM's ITL and AIPerf's
 * inter-chunk latency; they become {@code RequestCompleted.output_chunk_gaps_us}. At most
 * {@value #MAX_GAPS} gaps are kept, so that an event stays small for long outputs; later gaps are only
 * counted ({@link #dropped()}). Immutable.
 */
public final class OutputChunkGaps {
    /** Largest number of gaps kept per request (about 8-12 KB in an Avro event). */
    public static final int MAX_GAPS = 4096;
    /** No output chunk, or only one. */
    public static final OutputChunkGaps NONE = new OutputChunkGaps(new int[0], 0, 0);

    private final int[] gapsUs;
    private final int count;
    private final int dropped;

    private OutputChunkGaps(int[] gapsUs, int count, int dropped) {
        this.gapsUs = gapsUs;
        this.count = count;
        this.dropped = dropped;
    }

    /**
     * @param gapsUs  gaps in µs (only the first {@code count} are read; the array is copied)
     * @param count   gaps recorded, 0..{@value #MAX_GAPS}
     * @param dropped gaps not kept beyond {@value #MAX_GAPS}, &gt;= 0
     * @return the gaps
     * @throws IllegalArgumentException when a count is out of range
     */
    static OutputChunkGaps of(int[] gapsUs, int count, int dropped) {
        if (count < 0 || count > MAX_GAPS || count > gapsUs.length || dropped < 0) {
            throw new IllegalArgumentException("gap counts out of range: " + count + ", " + dropped);
        }
        return count == 0 && dropped == 0 ? NONE : new OutputChunkGaps(Arrays.copyOf(gapsUs, count), count, dropped);
    }

    /** @return the number of gaps kept */
    public int size() {
        return count;
    }

    /**
     * @param i 0-based gap index, below {@link #size()}
     * @return the gap, µs
     */
    public int gapUs(int i) {
        return gapsUs[i];
    }

    /** @return gaps after the first {@value #MAX_GAPS}, counted but not kept */
    public int dropped() {
        return dropped;
    }

    /** @return the kept gaps as a new list (µs), empty for none */
    public List<Integer> toList() {
        Integer[] boxed = new Integer[count]; // a loop, not a boxed stream: once per request event (issue 33 item 4)
        for (int i = 0; i < count; i++) {
            boxed[i] = gapsUs[i];
        }
        return java.util.Collections.unmodifiableList(Arrays.asList(boxed));
    }
}
