package io.capstream.cli.options;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Picocli converter for durations written as a number with a unit ({@code 500ms}, {@code 5s},
 * {@code 1m}, {@code 1h}, {@code 2d}; a bare number is seconds) or as ISO-8601 ({@code PT1M}).
 * Negative values, and values too long to count in nanoseconds (over ~292 years), are rejected.
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
            throw new TypeConversionException("'" + value + "' is not a duration: use e.g. 500ms, 5s, 1m, 1h or PT1M");
        }
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
