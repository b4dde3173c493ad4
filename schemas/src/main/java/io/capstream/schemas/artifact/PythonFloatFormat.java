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
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("NaN and Infinity are not allowed in artifact JSON: " + v);
        }
        if (v == 0.0) {
            return (Double.doubleToRawLongBits(v) < 0) ? "-0.0" : "0.0";
        }
        Decimal d = shortest(v);
        return format(v < 0, d.digits, d.decpt);
    }

    /** Digits without leading/trailing zeros; value = 0.digits x 10^decpt. */
    private record Decimal(String digits, int decpt) {
    }

    private static Decimal shortest(double v) {
        Decimal d = parseJava(DoubleToDecimal.toString(Math.abs(v)));
        if (d.digits.length() == 2) {
            // JDK rule: with a one-digit solution the JDK may pick a closer two-digit one. Python
            // always takes the shortest; among the one-digit candidates choose the closest that
            // round-trips.
            double a = Math.abs(v);
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

    /** Parses Java's {@code Double.toString} style ("123.45", "1.0E-5") of a positive value. */
    private static Decimal parseJava(String s) {
        int exp = 0;
        int e = s.indexOf('E');
        String mant = s;
        if (e >= 0) {
            exp = Integer.parseInt(s.substring(e + 1));
            mant = s.substring(0, e);
        }
        int dot = mant.indexOf('.');
        String intPart = dot >= 0 ? mant.substring(0, dot) : mant;
        String frac = dot >= 0 ? mant.substring(dot + 1) : "";
        String all = intPart + frac;
        int decpt = intPart.length() + exp;
        int lead = 0;
        while (lead < all.length() - 1 && all.charAt(lead) == '0') {
            lead++;
        }
        all = all.substring(lead);
        decpt -= lead;
        int end = all.length();
        while (end > 1 && all.charAt(end - 1) == '0') {
            end--;
        }
        return new Decimal(all.substring(0, end), decpt);
    }

    private static String format(boolean negative, String digits, int decpt) {
        StringBuilder sb = new StringBuilder(24);
        if (negative) {
            sb.append('-');
        }
        int n = digits.length();
        if (decpt > -4 && decpt <= 16) {
            if (decpt <= 0) {
                sb.append("0.");
                for (int i = 0; i < -decpt; i++) {
                    sb.append('0');
                }
                sb.append(digits);
            } else if (decpt >= n) {
                sb.append(digits);
                for (int i = n; i < decpt; i++) {
                    sb.append('0');
                }
                sb.append(".0");
            } else {
                sb.append(digits, 0, decpt).append('.').append(digits, decpt, n);
            }
        } else {
            sb.append(digits.charAt(0));
            if (n > 1) {
                sb.append('.').append(digits, 1, n);
            }
            int exp = decpt - 1;
            sb.append('e').append(exp < 0 ? '-' : '+');
            int abs = Math.abs(exp);
            if (abs < 10) {
                sb.append('0');
            }
            sb.append(abs);
        }
        return sb.toString();
    }
}
