package io.capstream.cli.sweep;

import io.capstream.aggregator.slo.Slo;
import java.util.List;
import java.util.Objects;

/**
 * What {@code capstream sweep} runs, resolved from its options.
 *
 * @param sweepId the sweep id ({@code SweepStep.sweep_id}; steps are {@code <sweep id>-s<step>}); not null
 * @param axis    the load axis; not null
 * @param grid    the grid's loads in order, or null for a search
 * @param search  the search's bounds, or null for a grid
 * @param output  the output directory; not null
 * @param slos    the parsed SLOs (the search's margins); never null
 */
public record SweepSettings(String sweepId, LoadAxis axis, List<Double> grid, SloSearch.Settings search,
                            SweepOutput output, List<Slo> slos) {
    /** Validates: exactly one of grid and search. */
    public SweepSettings {
        Objects.requireNonNull(sweepId, "sweepId");
        Objects.requireNonNull(axis, "axis");
        Objects.requireNonNull(output, "output");
        if ((grid == null) == (search == null)) {
            throw new IllegalArgumentException("a sweep is a grid or a search");
        }
        grid = grid == null ? null : List.copyOf(grid);
        slos = slos == null ? List.of() : List.copyOf(slos);
    }

    /** @return {@code grid} or {@code search} ({@code SweepStep.mode}) */
    public String mode() {
        return grid != null ? "grid" : "search";
    }

    /**
     * @param step 1-based step number
     * @return the step's run id, {@code <sweep id>-s<step>}
     */
    public String runId(int step) {
        return sweepId + "-s" + step;
    }
}
