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
 * @param autoRates {@code --rate auto[:N]}: the N rates spread between the synchronous and the throughput step
 *                  ({@link AutoRates}), or null for a grid or a search
 * @param repeat  {@code --repeat N}: runs per load of a grid or a search (issue 32), &ge; 1; each run is a step of
 *                its own, and with N &gt; 1 a load's SLO verdict comes from the intervals over its runs
 *                ({@link RepeatSummary})
 */
public record SweepSettings(String sweepId, LoadAxis axis, List<Double> grid, SloSearch.Settings search,
                            SweepOutput output, List<Slo> slos, Integer autoRates, int repeat) {
    /** Validates: exactly one of grid, search and auto rates. */
    public SweepSettings {
        Objects.requireNonNull(sweepId, "sweepId");
        Objects.requireNonNull(axis, "axis");
        Objects.requireNonNull(output, "output");
        int kinds = (grid == null ? 0 : 1) + (search == null ? 0 : 1) + (autoRates == null ? 0 : 1);
        if (kinds != 1) {
            throw new IllegalArgumentException("a sweep is a grid, a search or auto rates");
        }
        if (repeat < 1 || repeat > 1 && autoRates != null) {
            throw new IllegalArgumentException("repeat must be >= 1, and 1 with auto rates, got " + repeat);
        }
        if (autoRates != null && (autoRates < 1 || axis != LoadAxis.RATE)) {
            throw new IllegalArgumentException("auto rates need the rate axis and at least one rate");
        }
        grid = grid == null ? null : List.copyOf(grid);
        slos = slos == null ? List.of() : List.copyOf(slos);
    }

    /** A grid or a search (no auto rates), as before issue 30. */
    public SweepSettings(String sweepId, LoadAxis axis, List<Double> grid, SloSearch.Settings search,
                         SweepOutput output, List<Slo> slos) {
        this(sweepId, axis, grid, search, output, slos, null, 1);
    }

    /** A sweep whose every load runs once. */
    public SweepSettings(String sweepId, LoadAxis axis, List<Double> grid, SloSearch.Settings search,
                         SweepOutput output, List<Slo> slos, Integer autoRates) {
        this(sweepId, axis, grid, search, output, slos, autoRates, 1);
    }

    /** @return {@code grid}, {@code search} or {@code auto} ({@code SweepStep.mode}) */
    public String mode() {
        return grid != null ? "grid" : autoRates != null ? "auto" : "search";
    }

    /**
     * @return the steps of the curve known before the sweep starts: the grid's (times {@link #repeat}), the auto
     *     rates'; null for a search
     */
    public Integer planned() {
        return grid != null ? Integer.valueOf(grid.size() * repeat) : autoRates;
    }

    /**
     * @param step 1-based step number
     * @return the step's run id, {@code <sweep id>-s<step>}
     */
    public String runId(int step) {
        return sweepId + "-s" + step;
    }
}
