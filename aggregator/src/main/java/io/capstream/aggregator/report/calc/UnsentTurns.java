package io.capstream.aggregator.report.calc;

import io.capstream.schemas.avro.RequestCompleted;
import io.capstream.schemas.avro.RequestFailed;
import java.util.BitSet;
import java.util.List;

/**
 * The request indices a run planned but never sent because their conversation ended early (issue 29): the last sent
 * request of such a conversation carries {@code unsent_turns} = k, and indices {@code request_index + 1 ..
 * request_index + k} were not sent. They are not missing: the report is complete without them, and they do not
 * count in its {@code requests}. Stateless.
 */
public final class UnsentTurns {
    private UnsentTurns() {
    }

    /**
     * @param event a request event's payload ({@link RequestCompleted} or {@link RequestFailed}); anything else has
     *     none
     * @return its {@code unsent_turns}, or 0 when null, negative or not a request event
     */
    public static int of(Object event) {
        Integer k = event instanceof RequestCompleted c ? c.getUnsentTurns()
                : event instanceof RequestFailed f ? f.getUnsentTurns() : null;
        return k == null ? 0 : Math.max(0, k);
    }

    /**
     * Marks the indices one event says were not sent.
     *
     * @param into  the set to mark; not null
     * @param index the event's request index
     * @param k     its unsent turns (0: nothing)
     * @param limit the plan's size: indices at or above it are left out
     */
    public static void mark(BitSet into, int index, int k, int limit) {
        if (k > 0 && index >= 0) {
            int from = index + 1;
            int to = (int) Math.min((long) limit, (long) index + 1 + k);
            if (from < to) {
                into.set(from, to);
            }
        }
    }

    /**
     * @param completed the successful requests; not null
     * @param failed    the failed requests; not null
     * @param limit     the plan's size (indices at or above it are left out)
     * @return the unsent indices the events name
     */
    public static BitSet of(List<RequestCompleted> completed, List<RequestFailed> failed, int limit) {
        BitSet out = new BitSet();
        for (RequestCompleted c : completed) {
            mark(out, c.getRequestIndex(), of(c), limit);
        }
        for (RequestFailed f : failed) {
            mark(out, f.getRequestIndex(), of(f), limit);
        }
        return out;
    }
}
