package io.capstream.loadgen.sim;

import java.util.SplittableRandom;

/**
 * The faults drawn for one request.
 *
 * @param kind          what happens to the request
 * @param atToken       for STALL, CUT and MALFORMED: the number of output tokens written before the
 *                      fault (0 = before the first token)
 */
record FaultPlan(Kind kind, int atToken) {
    /** Fault kinds. */
    enum Kind { NONE, ERROR_500, RATE_LIMIT_429, STALL, CUT, MALFORMED }

    static final FaultPlan NONE = new FaultPlan(Kind.NONE, 0);

    /**
     * Draws the fault of the next request from the seeded RNG (one draw per request in arrival order,
     * so a given seed and arrival order give the same faults).
     *
     * @param rng          the engine's fault RNG
     * @param cfg          the rates
     * @param outputTokens the request's output length, tokens (&gt;= 1)
     * @return the plan, never null
     */
    static FaultPlan draw(SplittableRandom rng, SimConfig cfg, int outputTokens) {
        double u = rng.nextDouble();
        int at = outputTokens <= 1 ? 0 : 1 + rng.nextInt(outputTokens - 1);
        double edge = cfg.errorRate();
        if (u < edge) {
            return new FaultPlan(Kind.ERROR_500, 0);
        }
        edge += cfg.rateLimitRate();
        if (u < edge) {
            return new FaultPlan(Kind.RATE_LIMIT_429, 0);
        }
        edge += cfg.stallRate();
        if (u < edge) {
            return new FaultPlan(Kind.STALL, at);
        }
        edge += cfg.cutRate();
        if (u < edge) {
            return new FaultPlan(Kind.CUT, at);
        }
        edge += cfg.malformedRate();
        if (u < edge) {
            return new FaultPlan(Kind.MALFORMED, at);
        }
        return NONE;
    }
}
