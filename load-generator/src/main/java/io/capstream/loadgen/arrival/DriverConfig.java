package io.capstream.loadgen.arrival;

import io.vertx.core.Context;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What an arrival driver needs.
 *
 * @param requests    n: requests to start at most
 * @param slots       closed loop: concurrency; open loop: max in flight
 * @param t0Ns        the run's T0, ns on the driver's {@link ArrivalClock} ({@code System.nanoTime()} in a run,
 *                    a fake clock in tests)
 * @param deadlineNs  no request starts at or after this time, ns on the same clock; {@link Long#MAX_VALUE} for none
 * @param contexts    event-loop contexts to spread requests over (request i uses {@code contexts[i % size]})
 * @param stop        returns true when the run should stop starting requests
 * @param rampUpNs    closed loop: slot k of {@code slots} starts {@code k x rampUpNs / slots} ns after T0
 *                    (0 = every slot at T0, the reference); ignored by the open loop
 */
public record DriverConfig(int requests, int slots, long t0Ns, long deadlineNs, List<Context> contexts,
                           BooleanSupplier stop, long rampUpNs) {
}
