package io.capstream.loadgen.arrival;

import java.util.SplittableRandom;

/**
 * Gamma-distributed gaps with mean 1 and shape {@code B} ({@code --burstiness}, issue 30): the coefficient of
 * variation is {@code 1/sqrt(B)}; B = 1 is the exponential (Poisson) gap, B &lt; 1 is burstier, B &gt; 1 more
 * regular. The caller scales a gap by the mean it wants ({@code 1/rate}). The draws come from the caller's
 * {@link SplittableRandom}, so a seed reproduces them.
 *
 * <p>The sampler is Marsaglia and Tsang's squeeze method: G. Marsaglia, W. W. Tsang, "A Simple Method for
 * Generating Gamma Variables", ACM Transactions on Mathematical Software 26(3), 2000, pp. 363-372 (section 6 for
 * shapes below 1: {@code Gamma(a) = Gamma(a + 1) * U^(1/a)}). No well-kept sampler (Apache Commons RNG/Math) is on
 * the classpath, and the method is a dozen lines. Immutable; the random source is the caller's (not thread-safe).
 */
final class GammaGaps {
    private final double shape;
    /** Marsaglia-Tsang's d = a - 1/3 and c = 1/sqrt(9d), for a = shape (or shape + 1 below 1). */
    private final double d;
    private final double c;
    private final boolean boost;

    /**
     * @param shape the gamma shape B, finite and &gt; 0
     * @throws IllegalArgumentException for another shape
     */
    GammaGaps(double shape) {
        if (!(shape > 0) || !Double.isFinite(shape)) {
            throw new IllegalArgumentException("gamma shape (--burstiness) must be a finite number > 0, got " + shape);
        }
        this.shape = shape;
        this.boost = shape < 1;
        double a = boost ? shape + 1 : shape;
        this.d = a - 1.0 / 3.0;
        this.c = 1.0 / Math.sqrt(9.0 * d);
    }

    /**
     * @param rng the random source; not null
     * @return a gap drawn from Gamma(shape B, scale 1/B): mean 1, coefficient of variation 1/sqrt(B), &gt;= 0
     */
    double next(SplittableRandom rng) {
        double g;
        while (true) {
            double x = rng.nextGaussian();
            double v = 1.0 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = 1.0 - rng.nextDouble(); // (0, 1]
            double x2 = x * x;
            if (u < 1.0 - 0.0331 * x2 * x2 || Math.log(u) < 0.5 * x2 + d * (1.0 - v + Math.log(v))) {
                g = d * v;
                break;
            }
        }
        if (boost) {
            g *= Math.pow(1.0 - rng.nextDouble(), 1.0 / shape);
        }
        return g / shape;
    }
}
