package io.capstream.loadgen.workload;

import java.util.Locale;
import java.util.Random;

/**
 * A synthetic token-length distribution ({@code --input-tokens MEAN[,STDDEV]}, {@code --output-tokens
 * MEAN[,STDDEV]}): normal with the given mean and standard deviation, each draw rounded to the nearest
 * integer and clamped to {@code [min, max]}; a standard deviation of 0 gives the mean for every request.
 * Draws are deterministic: {@link java.util.Random} (its Gaussian algorithm is specified by the JDK) seeded
 * from the run's seed and a per-use salt, so that input and output lengths are independent. Immutable.
 *
 * @param mean   mean length, tokens (&gt; 0)
 * @param stddev standard deviation, tokens (&gt;= 0)
 */
public record LengthDistribution(double mean, double stddev) {
    /** Salt of the input-length draws. */
    public static final long INPUT_SALT = 0x696e707574L;
    /** Salt of the output-length draws. */
    public static final long OUTPUT_SALT = 0x6f7574707574L;

    /**
     * Parses {@code MEAN[,STDDEV]}.
     *
     * @param option the option's name, for the message (e.g. {@code --input-tokens})
     * @param text   the value, e.g. {@code 512} or {@code 512,128}
     * @return the distribution
     * @throws IllegalArgumentException with a one-line usage message when the text is not two finite numbers,
     *         the mean is not positive or the standard deviation is negative
     */
    public static LengthDistribution parse(String option, String text) {
        String[] parts = text == null ? new String[0] : text.split(",", -1);
        if (parts.length < 1 || parts.length > 2) {
            throw new IllegalArgumentException(option + " must be MEAN or MEAN,STDDEV (tokens), got '" + text + "'");
        }
        try {
            double mean = Double.parseDouble(parts[0].trim());
            double sd = parts.length == 2 ? Double.parseDouble(parts[1].trim()) : 0;
            LengthDistribution d = new LengthDistribution(mean, sd);
            String problem = d.problem(option);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be MEAN or MEAN,STDDEV (tokens), got '" + text + "'");
        }
    }

    /**
     * @param option the option's name, for the message
     * @return why the values are unusable (mean not finite and positive, stddev not finite and &gt;= 0), or null
     */
    public String problem(String option) {
        if (!Double.isFinite(mean) || mean <= 0 || !Double.isFinite(stddev) || stddev < 0) {
            return option + " needs a mean > 0 and a standard deviation >= 0 (tokens), got " + this.label();
        }
        return null;
    }

    /**
     * @param n    draws
     * @param seed the run's seed
     * @param salt {@link #INPUT_SALT} or {@link #OUTPUT_SALT}
     * @param min  smallest length returned, tokens
     * @param max  largest length returned, tokens (&gt;= min)
     * @return n lengths, tokens, each {@code clamp(round(mean + stddev × gaussian), min, max)}
     */
    public int[] sample(int n, long seed, long salt, int min, int max) {
        Random rng = new Random(seed ^ salt);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            double v = stddev == 0 ? mean : mean + stddev * rng.nextGaussian();
            out[i] = (int) Math.max(min, Math.min(max, Math.round(v)));
        }
        return out;
    }

    /** @return {@code MEAN,STDDEV} as numbers, e.g. {@code 512,128} */
    public String label() {
        return fmt(mean) + "," + fmt(stddev);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
