package io.capstream.cli.options;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Picocli converter for durations written as a number with a unit ({@code 500ms}, {@code 5s}, {@code 1.5s},
 * {@code 1m}, {@code 1h}, {@code 2d}; a bare number is seconds) or as ISO-8601 ({@code PT1M}), resolved to the
 * millisecond. Negative values, and values too long to count in nanoseconds (over ~292 years), are rejected.
 * Every option of a time takes this form, timeouts included ({@code --timeout 30s} or {@code --timeout 30}); the
 * bounds of an option are checked by its command, with {@link #rangeProblem} for a range of whole seconds.
 */
public final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern SIMPLE = Pattern.compile("^(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?$");
    private static final Pattern NEGATIVE = Pattern.compile("^-\\s*\\d.*");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    /**
     * @param value e.g. {@code 5s}; not null
     * @return the duration
     * @throws TypeConversionException with an explanation when the value is not a duration
     */
    public static Duration parse(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(v);
        if (m.matches()) {
            double n = Double.parseDouble(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            double ms = switch (unit) {
                case "ms" -> n;
                case "s" -> n * 1000;
                case "m" -> n * 60_000;
                case "h" -> n * 3_600_000;
                default -> n * 86_400_000;
            };
            return withinNanos(value, Duration.ofMillis(Math.round(ms)));
        }
        if (NEGATIVE.matcher(v).matches()) {
            throw new TypeConversionException("'" + value + "' is negative");
        }
        try {
            Duration d = Duration.parse(value.trim().toUpperCase(Locale.ROOT));
            if (d.isNegative()) {
                throw new TypeConversionException("'" + value + "' is negative");
            }
            return withinNanos(value, d);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new TypeConversionException("'" + value + "' is not a duration: use e.g. 500ms, 5s, 1m, 1h or PT1M"
                    + " (a bare number is seconds)");
        }
    }

    /**
     * {@link #parse}, except that a leading {@code -} gives the negative duration instead of an error: for an option
     * whose command checks its bounds itself (a timeout, {@link #rangeProblem}), so that {@code --timeout -5} is told
     * the range it must be in, as a number was before.
     *
     * @param value e.g. {@code 30s}, {@code -5}; not null
     * @return the duration, negative for a value starting with {@code -}
     * @throws TypeConversionException with an explanation when the value (without its sign) is not a duration
     */
    public static Duration parseSigned(String value) {
        String v = value.strip();
        if (v.startsWith("-")) {
            try {
                return parse(v.substring(1)).negated();
            } catch (TypeConversionException e) {
                // the message quotes the value as given, sign included
                throw new TypeConversionException(e.getMessage().replace("'" + v.substring(1) + "'", "'" + value + "'"));
            }
        }
        return parse(value);
    }

    /** Picocli converter of {@link #parseSigned}: {@code converter = DurationConverter.Signed.class}. */
    public static final class Signed implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return parseSigned(value);
        }
    }

    /**
     * @param d a duration; not null
     * @return it in seconds as the usage errors say it: no unit, no trailing zeros, to the millisecond
     *         (e.g. {@code 30}, {@code 1.5}, {@code 0.25}, {@code 0})
     */
    public static String secondsText(Duration d) {
        return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
    }

    /**
     * The bounds check of a timeout option given in seconds: {@code "--timeout must be 1..600 seconds, got 0.5"}.
     *
     * @param option the option's name, e.g. {@code --timeout}; not null
     * @param d      its value; not null
     * @param minS   the least value, seconds
     * @param maxS   the largest value, seconds
     * @return the usage error without command prefix, or null when {@code minS <= d <= maxS}
     */
    public static String rangeProblem(String option, Duration d, long minS, long maxS) {
        if (d.compareTo(Duration.ofSeconds(minS)) < 0 || d.compareTo(Duration.ofSeconds(maxS)) > 0) {
            return option + " must be " + minS + ".." + maxS + " seconds, got " + secondsText(d);
        }
        return null;
    }

    /** Math.round saturates at Long.MAX_VALUE ms; the callers need nanoseconds. */
    private static Duration withinNanos(String value, Duration d) {
        try {
            d.toNanos();
            return d;
        } catch (ArithmeticException e) {
            throw new TypeConversionException("'" + value + "' is too long");
        }
    }
}
