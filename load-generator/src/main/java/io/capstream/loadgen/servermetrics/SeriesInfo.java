package io.capstream.loadgen.servermetrics;

/**
 * One series of a recording.
 *
 * @param name   the series name (common, or the engine's own)
 * @param source the engine's own name, with its labels when it has several label sets
 * @param kind   gauge or counter
 */
public record SeriesInfo(String name, String source, String kind) {
}
