package io.capstream.schemas.artifact;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;

/**
 * Formats a {@code double} exactly as CPython's {@code repr(float)} does (spec §9.1): the shortest
 * decimal digit string that parses back to the same double (closest to the exact value when several
 * have that length), fixed notation when the decimal exponent {@code decpt} satisfies
 * {@code -4 < decpt <= 16}, otherwise exponent notation such as {@code 1e-05} or {@code 1.5e+16};
 * integer-valued results carry {@code .0}.
 *
 * <p>The digits come from Jackson's Schubfach implementation ({@link DoubleToDecimal}), which is
 * the shortest round-trip algorithm of JDK 19+. The JDK specification differs from CPython in one
 * corner: when a single digit would suffice, it may return the closest two-digit decimal (for example
 * {@code 4.9E-324} where Python prints {@code 5e-324}); {@link #repr(double)} corrects that case.
 *
 * <p>Stateless and thread-safe.
 */
public final class PythonFloatFormat {
    private PythonFloatFormat() {
    }

    /**
     * Python {@code repr} of a finite double.
     *
     * @param v the value; must be finite
     * @return the text, e.g. {@code 3613.0}, {@code 0.0001}, {@code 1e-05}, {@code -0.0}
     * @throws IllegalArgumentException when {@code v} is NaN or infinite
     */
    public static String repr(double v) {
        StringBuilder sb = new StringBuilder(24);
        appendRepr(sb, v);
        return sb.toString();
    }

    /**
     * Appends the Python {@code repr} of a finite double ({@link #repr(double)}) without building
     * intermediate strings.
     *
     * @param sb the target
     * @param v the value; must be finite
     * @throws IllegalArgumentException when {@code v} is NaN or infinite (nothing is appended)
     */
    public static void appendRepr(StringBuilder sb, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("NaN and Infinity are not allowed in artifact JSON: " + v);
        }
        if (v == 0.0) {
            sb.append((Double.doubleToRawLongBits(v) < 0) ? "-0.0" : "0.0");
            return;
        }
        double a = Math.abs(v);
        if (a >= 1e-4 && a < FAST_LIMIT && appendFewDecimals(sb, v, a)) {
            return;
        }
        appendShortest(sb, v, a);
    }

    /**
     * The general path of {@link #appendRepr}: Schubfach's shortest digits, corrected and formatted as CPython does.
     *
     * @param sb the target
     * @param v  the value, finite and not zero
     * @param a  its absolute value
     */
    static void appendShortest(StringBuilder sb, double v, double a) {
        String s = DoubleToDecimal.toString(a);
        // Java style "123.45" or "1.2345E-5": collect the significant digits and the decimal point
        // position (value = 0.digits x 10^decpt) without substrings.
        char[] digits = new char[24];
        int n = 0;
        int intLen = 0;
        int lead = 0;
        int exp = 0;
        boolean dot = false;
        int len = s.length();
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                dot = true;
            } else if (c == 'E') {
                exp = parseExponent(s, i + 1);
                break;
            } else {
                if (!dot) {
                    intLen++;
                }
                if (n == 0 && c == '0') {
                    lead++;
                } else {
                    digits[n++] = c;
                }
            }
        }
        while (n > 1 && digits[n - 1] == '0') {
            n--;
        }
        int decpt = intLen + exp - lead;
        if (n == 2 && mayHaveOneDigitForm(a, digits[0] - '0', decpt)) {
            Decimal d = shortest(a, new Decimal(new String(digits, 0, 2), decpt));
            format(sb, v < 0, d.digits.toCharArray(), d.digits.length(), d.decpt);
            return;
        }
        format(sb, v < 0, digits, n, decpt);
    }

    /** Values below 2^50: a decimal scaled by 10^k into this range is an exact integer, a quarter ulp from the product. */
    private static final double FAST_LIMIT = 0x1p50;
    private static final long[] LONG_POW10 = {
        1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L,
        10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L, 10_000_000_000_000L, 100_000_000_000_000L,
        1_000_000_000_000_000L,
    };

    /**
     * The fast path for the common values of a report (integers, milliseconds with a few decimals, ratios): finds the
     * fewest decimals k (0..15) with which a decimal {@code m / 10^k} parses back to {@code a}, and writes it in fixed
     * notation, as CPython's {@code repr} does for {@code 1e-4 <= a < 1e16}. While {@code a * 10^k < 2^50} the
     * double's rounding interval is under a quarter of 10^-k wide, so at most one such m exists, and rounding the
     * product (off by at most 1/8) finds it; {@code m / 10^k} is the correctly rounded quotient of two exact values,
     * so comparing it with {@code a} is the round-trip test, and the fewest decimals give the fewest significant
     * digits. When no k qualifies, returns false and writes nothing (the general path then does).
     */
    private static boolean appendFewDecimals(StringBuilder sb, double v, double a) {
        for (int k = 0; k < LONG_POW10.length; k++) {
            double scaled = a * POW10[k];
            if (scaled >= FAST_LIMIT) {
                return false;
            }
            long m = (long) Math.rint(scaled);
            if (m != 0 && (double) m / POW10[k] == a) {
                if (v < 0) {
                    sb.append('-');
                }
                long p = LONG_POW10[k];
                sb.append(m / p).append('.');
                if (k == 0) {
                    sb.append('0');
                } else {
                    long frac = m % p;
                    for (long q = p / 10; q > frac && q > 1; q /= 10) {
                        sb.append('0'); // leading zeros of the fraction
                    }
                    sb.append(frac);
                }
                return true;
            }
        }
        return false;
    }

    private static final double[] POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };

    /**
     * Whether a one-digit decimal ({@code first} or {@code first + 1} times 10^(decpt-1)) might
     * parse back to {@code a}. Exact for |decpt - 1| <= 22, where one multiplication or division
     * of exactly representable operands is correctly rounded (as {@link Double#parseDouble} is);
     * otherwise conservatively true.
     */
    private static boolean mayHaveOneDigitForm(double a, int first, int decpt) {
        int k = decpt - 1;
        if (k < -22 || k > 22) {
            return true;
        }
        for (int cand = first; cand <= first + 1; cand++) {
            double parsed = k >= 0 ? cand * POW10[k] : cand / POW10[-k];
            if (parsed == a) {
                return true;
            }
        }
        return false;
    }

    private static int parseExponent(String s, int from) {
        boolean neg = false;
        int i = from;
        if (s.charAt(i) == '-') {
            neg = true;
            i++;
        }
        int e = 0;
        for (; i < s.length(); i++) {
            e = e * 10 + (s.charAt(i) - '0');
        }
        return neg ? -e : e;
    }

    /** Digits without leading/trailing zeros; value = 0.digits x 10^decpt. */
    private record Decimal(String digits, int decpt) {
    }

    /** The JDK's two-digit result {@code d} of {@code a > 0}, corrected to Python's choice. */
    private static Decimal shortest(double a, Decimal d) {
        if (d.digits.length() == 2) {
            // JDK rule: with a one-digit solution the JDK may pick a closer two-digit one. Python
            // always takes the shortest; among the one-digit candidates choose the closest that
            // round-trips.
            int first = d.digits.charAt(0) - '0';
            Decimal best = null;
            java.math.BigDecimal bestDist = null;
            for (int cand = first; cand <= first + 1; cand++) {
                Decimal c = cand == 10 ? new Decimal("1", d.decpt + 1) : new Decimal(Integer.toString(cand), d.decpt);
                double parsed = Double.parseDouble("0." + c.digits + "E" + c.decpt);
                if (parsed == a) {
                    java.math.BigDecimal dist = new java.math.BigDecimal("0." + c.digits + "E" + c.decpt)
                            .subtract(new java.math.BigDecimal(a)).abs();
                    if (best == null || dist.compareTo(bestDist) < 0) {
                        best = c;
                        bestDist = dist;
                    }
                }
            }
            if (best != null) {
                return best;
            }
        }
        return d;
    }

    private static void format(StringBuilder sb, boolean negative, char[] digits, int n, int decpt) {
        if (negative) {
            sb.append('-');
        }
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) {
                sb.append("0.");
                for (int i = 0; i < -decpt; i++) {
                    sb.append('0');
                }
                sb.append(digits, 0, n);
            } else if (decpt >= n) {
                sb.append(digits, 0, n);
                for (int i = n; i < decpt; i++) {
                    sb.append('0');
                }
                sb.append(".0");
            } else {
                sb.append(digits, 0, decpt).append('.').append(digits, decpt, n - decpt);
            }
        } else {
            sb.append(digits[0]);
            if (n > 1) {
                sb.append('.').append(digits, 1, n - 1);
            }
            int exp = decpt - 1;
            sb.append('e').append(exp < 0 ? '-' : '+');
            int abs = Math.abs(exp);
            if (abs < 10) {
                sb.append('0');
            }
            sb.append(abs);
        }
    }
}
