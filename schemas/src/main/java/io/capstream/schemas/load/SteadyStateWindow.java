package io.capstream.schemas.load;

/**
 * The window of a run's steady-state view ({@code --steady-state START:END}, issue 30), seconds after T0.
 *
 * @param startS window start, seconds after T0, &gt;= 0
 * @param endS   window end, seconds after T0, &gt; startS
 */
public record SteadyStateWindow(double startS, double endS) {

    /** @throws IllegalArgumentException when the bounds are not finite, start &lt; 0 or end &lt;= start */
    public SteadyStateWindow {
        if (!Double.isFinite(startS) || !Double.isFinite(endS) || startS < 0 || endS <= startS) {
            throw new IllegalArgumentException("--steady-state needs START:END seconds with 0 <= START < END, got "
                    + fmt(startS) + ":" + fmt(endS));
        }
    }

    /**
     * @param text {@code START:END}, seconds after T0, each with an optional {@code s} (e.g. {@code 10:70} or
     *             {@code 10s:70s}); not null
     * @return the window
     * @throws IllegalArgumentException for text that is not two numbers or breaks a bound, with a one-line message
     */
    public static SteadyStateWindow parse(String text) {
        String[] parts = text.strip().split(":", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("--steady-state expects START:END in seconds (e.g. 10:70), got '"
                    + text.strip() + "'");
        }
        try {
            return new SteadyStateWindow(seconds(parts[0]), seconds(parts[1]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--steady-state expects START:END in seconds (e.g. 10:70), got '"
                    + text.strip() + "'");
        }
    }

    private static double seconds(String s) {
        String t = s.strip();
        return Double.parseDouble(t.endsWith("s") ? t.substring(0, t.length() - 1) : t);
    }

    /** @return {@code START:END} in seconds, e.g. {@code 10:70}; parses back equal */
    public String canonical() {
        return fmt(startS) + ":" + fmt(endS);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
