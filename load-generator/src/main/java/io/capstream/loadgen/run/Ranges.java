package io.capstream.loadgen.run;

import java.util.List;

/** The one wording of an out-of-range option value: {@code "--x must be between lo and hi, got v"}. */
final class Ranges {
    private Ranges() {
    }

    /**
     * @param errors where to add the message
     * @param name   option name, e.g. {@code --requests}
     * @param v      the value
     * @param lo     smallest allowed value
     * @param hi     largest allowed value
     */
    static void check(List<String> errors, String name, long v, long lo, long hi) {
        if (v < lo || v > hi) {
            errors.add(name + " must be between " + lo + " and " + hi + ", got " + v);
        }
    }
}
