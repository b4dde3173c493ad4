package io.capstream.loadgen.run;

import io.capstream.loadgen.client.RequestResult;
import io.capstream.loadgen.stop.EndedRequest;
import io.capstream.schemas.avro.RequestFailed;
import io.capstream.schemas.avro.RunEvent;

/** Turns an ended request of the {@link RequestPipeline} into what the stop rules see (issue 30). Stateless. */
final class StopRuleInput {
    private StopRuleInput() {
    }

    /**
     * @param ev          the request's event (its error type when it failed); not null
     * @param r           its result, or null when it failed before it was sent (or its event could not be built)
     * @param scheduledNs when it was due, ns after T0
     * @param startNs     when it was sent, ns after T0
     * @param endNs       when it ended, ns after T0
     * @return the ended request: cancelled when {@link RequestResult#cancelled()}, failed when its event is a
     *         RequestFailed that is not a cancel
     */
    static EndedRequest of(RunEvent ev, RequestResult r, long scheduledNs, long startNs, long endNs) {
        boolean cancelled = r != null && r.cancelled();
        String errorType = ev.getPayload() instanceof RequestFailed f ? f.getErrorType() : null;
        boolean failed = !cancelled && ev.getPayload() instanceof RequestFailed;
        long ttft = r != null && r.ok() ? r.ttftNs() : -1;
        return new EndedRequest(scheduledNs, startNs, endNs, failed, cancelled, ttft, failed ? errorType : null);
    }
}
