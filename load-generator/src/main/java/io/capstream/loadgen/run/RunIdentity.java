package io.capstream.loadgen.run;

import io.capstream.schemas.text.RunIdRule;
import java.util.ArrayList;
import java.util.List;

/**
 * The run-identity group of a {@link RunConfig}: how the run and this generator are named in the events
 * and the report, the labels recorded with them, and the seed that makes the run reproducible (spec §1, §3.1).
 *
 * @param runId           run id override used verbatim, or null to derive {@code benchmark-YYYYMMDDTHHMMSSZ};
 *                        checked by {@link RunIdRule} (no {@code /}, {@code \}, control characters; at most
 *                        {@value RunIdRule#MAX_LENGTH} characters)
 * @param runIdSuffix     appended to the derived run id as {@code -<suffix>} to avoid same-second collisions, or
 *                        null; the resulting id follows the same rule
 * @param workerId        id of this generator process in the events, or null for a random one
 * @param expectedWorkers number of workers whose RunFinished completes the run (default 1)
 * @param seed            {@code --seed} of the context plan (and of Poisson arrivals) (default 0)
 * @param gpu             GPU label recorded in the report, or null
 */
public record RunIdentity(String runId, String runIdSuffix, String workerId, int expectedWorkers, long seed,
                          String gpu) {

    /** A derived run id, a random worker id, one worker, seed 0, no GPU label. */
    public static final RunIdentity DEFAULTS = new RunIdentity(null, null, null, 1, 0, null);

    /** @param v GPU label, or null @return a copy with it */
    public RunIdentity withGpu(String v) {
        return new RunIdentity(runId, runIdSuffix, workerId, expectedWorkers, seed, v);
    }

    /**
     * @param id the run id override, or null
     * @return a copy with this {@code runId}
     */
    public RunIdentity withRunId(String id) {
        return new RunIdentity(id, runIdSuffix, workerId, expectedWorkers, seed, gpu);
    }

    /**
     * @param suffix the derived run id's suffix, or null
     * @return a copy with this {@code runIdSuffix}
     */
    public RunIdentity withRunIdSuffix(String suffix) {
        return new RunIdentity(runId, suffix, workerId, expectedWorkers, seed, gpu);
    }

    /**
     * @param id this generator's id in the events, or null for a random one
     * @return a copy with this {@code workerId}
     */
    public RunIdentity withWorkerId(String id) {
        return new RunIdentity(runId, runIdSuffix, id, expectedWorkers, seed, gpu);
    }

    /**
     * @param s the context plan's seed
     * @return a copy with this {@code seed}
     */
    public RunIdentity withSeed(long s) {
        return new RunIdentity(runId, runIdSuffix, workerId, expectedWorkers, s, gpu);
    }

    /**
     * @param n the number of workers whose RunFinished completes the run
     * @return a copy with this {@code expectedWorkers}
     */
    public RunIdentity withExpectedWorkers(int n) {
        return new RunIdentity(runId, runIdSuffix, workerId, n, seed, gpu);
    }

    /**
     * Checks the group: the expected workers, the run id override and the length and characters of a
     * derived id with its suffix ({@link RunIdRule}).
     *
     * @return one usage error message per problem; empty when valid; never null
     */
    public List<String> problems() {
        List<String> errors = new ArrayList<>();
        if (expectedWorkers < 1) {
            errors.add("expected workers must be >= 1, got " + expectedWorkers);
        }
        runIdRule(errors, "--run-id", runId);
        if (runId == null && runIdSuffix != null && !runIdSuffix.isBlank()) {
            String derived = RunIds.runId(java.time.Instant.EPOCH, null, runIdSuffix);
            if (derived.length() > RunIdRule.MAX_LENGTH) {
                errors.add("--run-id-suffix makes the run id " + derived.length() + " characters long, at most "
                        + RunIdRule.MAX_LENGTH);
            } else {
                runIdRule(errors, "--run-id-suffix", runIdSuffix);
            }
        }
        return errors;
    }

    /** Adds the {@link RunIdRule} problem of {@code id}, naming the option; shows the id only when it is printable. */
    private static void runIdRule(List<String> errors, String option, String id) {
        String problem = RunIdRule.problem(id);
        if (problem != null) {
            errors.add(option + " " + problem + (problem.startsWith("must not contain '") ? ": '" + id + "'" : ""));
        }
    }
}
