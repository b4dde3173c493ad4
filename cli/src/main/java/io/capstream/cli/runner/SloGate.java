package io.capstream.cli.runner;

import io.capstream.schemas.avro.SloAttainment;
import io.capstream.schemas.avro.SloReport;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The exit code of a run that missed its {@code --slo}s, so that {@code run} can gate a CI pipeline as k6 thresholds
 * do: {@value #EXIT_SLO_MISSED} when the run itself went well (exit code 0 otherwise) but its report says at least
 * one SLO was missed ({@code capstream.slo.met_all = false}). A run that already fails for another reason keeps its
 * code (1, 2, 130, 143). Stateless.
 */
public final class SloGate {
    /** Exit code of a run (or of a sweep none of whose loads met the SLOs) that missed its SLOs. */
    public static final int EXIT_SLO_MISSED = 3;

    private SloGate() {
    }

    /**
     * @param slo    the SLO evaluation of the run's report ({@code BenchmarkReport.slo}); null when no report arrived
     *               or no SLO was given (the code is then returned as is)
     * @param code   the exit code so far
     * @param err    where the line naming the missed SLOs goes, e.g.
     *               {@code capstream run: SLO missed: ttft_p95_ms<=1 (observed 212.4); exit code 3}
     * @param cmd    the message prefix, e.g. {@code capstream run}
     * @return {@value #EXIT_SLO_MISSED} when {@code code} is 0 and an SLO was missed, else {@code code}
     */
    public static int apply(SloReport slo, int code, PrintStream err, String cmd) {
        if (code != 0 || slo == null || slo.getMetAll()) {
            return code;
        }
        List<String> missed = new ArrayList<>();
        for (SloAttainment a : slo.getSlos()) {
            if (!a.getMet()) {
                missed.add(a.getSlo() + " (observed " + (a.getObserved() == null ? "none"
                        : String.format(Locale.ROOT, "%.4g", a.getObserved())) + ")");
            }
        }
        err.println(cmd + ": SLO" + (missed.size() == 1 ? "" : "s") + " missed: " + String.join(", ", missed)
                + "; exit code " + EXIT_SLO_MISSED);
        return EXIT_SLO_MISSED;
    }
}
