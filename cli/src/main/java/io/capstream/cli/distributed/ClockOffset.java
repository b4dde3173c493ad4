package io.capstream.cli.distributed;

import java.util.Collection;

/**
 * This process's wall clock minus the Kafka broker's, estimated from one probe record sent to the
 * control topic ({@link ControlTopic}, {@code LogAppendTime}): the broker stamps the record when it
 * appends it, which happened between the send ({@code t_send}) and the acknowledgement
 * ({@code t_ack}) on this clock, so {@code offset = (t_send + t_ack) / 2 - broker_append_time} is
 * within {@code +/- (t_ack - t_send) / 2} of the truth (NTP's estimate with one exchange). Immutable.
 *
 * @param offsetMs      local wall clock minus the broker's, ms
 * @param uncertaintyMs half the probe's round trip, ms (&gt;= 0): the offset is within +/- this
 */
public record ClockOffset(double offsetMs, double uncertaintyMs) {
    /** The offset of a process that does not estimate it: 0, unknown uncertainty (infinite). */
    public static final ClockOffset UNKNOWN = new ClockOffset(0, Double.POSITIVE_INFINITY);

    /**
     * @param sendMs   local wall clock just before the probe was sent, epoch ms
     * @param ackMs    local wall clock when its acknowledgement arrived, epoch ms (&gt;= sendMs)
     * @param brokerMs the broker's log-append time of the probe, epoch ms
     * @return the estimate of that probe
     * @throws IllegalArgumentException when {@code ackMs < sendMs}
     */
    public static ClockOffset ofProbe(long sendMs, long ackMs, long brokerMs) {
        if (ackMs < sendMs) {
            throw new IllegalArgumentException("acknowledged (" + ackMs + ") before sent (" + sendMs + ")");
        }
        return new ClockOffset((sendMs + ackMs) / 2.0 - brokerMs, (ackMs - sendMs) / 2.0);
    }

    /**
     * @param probes estimates of several probes; not null
     * @return the one with the smallest round trip (the tightest bound), or {@link #UNKNOWN} when there is none
     */
    public static ClockOffset best(Collection<ClockOffset> probes) {
        ClockOffset best = UNKNOWN;
        for (ClockOffset p : probes) {
            if (p.uncertaintyMs < best.uncertaintyMs) {
                best = p;
            }
        }
        return best;
    }

    /**
     * @param brokerEpochMs an instant on the broker's clock, epoch ms
     * @return the same instant on this process's clock, epoch ms (rounded)
     */
    public long toLocal(long brokerEpochMs) {
        return brokerEpochMs + Math.round(offsetMs);
    }

    /**
     * @param localEpochMs an instant on this process's clock, epoch ms
     * @return the same instant on the broker's clock, epoch ms (rounded)
     */
    public long toBroker(long localEpochMs) {
        return localEpochMs - Math.round(offsetMs);
    }

    /** @return whether the offset was estimated (finite uncertainty) */
    public boolean known() {
        return Double.isFinite(uncertaintyMs);
    }
}
