package io.capstream.loadgen.run;

import java.util.List;

/**
 * Invalid run parameters, detected before any request is sent (spec §1): the command exits with
 * code 2. The message lists every problem, one per line.
 */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<String> problems;

    /** @param problems the usage errors; not empty */
    public UsageException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /** @param problem one usage error */
    public UsageException(String problem) {
        this(List.of(problem));
    }

    /** @return the usage errors, one message each */
    public List<String> problems() {
        return problems;
    }
}
