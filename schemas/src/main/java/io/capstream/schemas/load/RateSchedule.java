package io.capstream.schemas.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A piecewise-linear offered rate over a run ({@code --rate-schedule}, issue 30): points {@code t:rate} with
 * increasing times, the rate linear between two points and constant after the last one (and the first point's
 * before it). The generator, the report's per-stage view and {@code rerun} share this one reading of the text.
 *
 * <p>Open-loop arrivals follow the schedule by time rescaling: the arrival process (constant, Poisson or gamma)
 * is drawn at rate 1 in "operational time" u, and arrival u is sent at {@link #timeOf(double) t = Λ⁻¹(u)}, where
 * {@link #expectedArrivals(double) Λ(t)} is the integral of the rate from 0 to t. So the gaps keep their shape
 * (their coefficient of variation) while their mean follows the schedule.
 *
 * @param points the points, at least one, times strictly increasing and &gt;= 0, rates &gt;= 0 (req/s), at least
 *               one rate &gt; 0; not null
 */
public record RateSchedule(List<Point> points) {

    /**
     * One point of the schedule.
     *
     * @param atS     seconds after T0, &gt;= 0
     * @param rateRps offered rate at that time, requests/s, &gt;= 0
     */
    public record Point(double atS, double rateRps) {
    }

    /**
     * @throws IllegalArgumentException when the points break a rule of the record's description, with a one-line
     *                                  message naming the option ({@code --rate-schedule})
     */
    public RateSchedule {
        points = List.copyOf(points);
        if (points.isEmpty()) {
            throw new IllegalArgumentException("--rate-schedule needs at least one TIME:RATE point");
        }
        boolean positive = false;
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            if (!Double.isFinite(p.atS()) || p.atS() < 0) {
                throw new IllegalArgumentException("--rate-schedule times must be >= 0, got " + fmt(p.atS()) + "s");
            }
            if (!Double.isFinite(p.rateRps()) || p.rateRps() < 0) {
                throw new IllegalArgumentException("--rate-schedule rates must be >= 0 requests/s, got "
                        + fmt(p.rateRps()) + " at " + fmt(p.atS()) + "s");
            }
            if (i > 0 && p.atS() <= points.get(i - 1).atS()) {
                throw new IllegalArgumentException("--rate-schedule times must increase: " + fmt(p.atS())
                        + "s follows " + fmt(points.get(i - 1).atS()) + "s");
            }
            positive |= p.rateRps() > 0;
        }
        if (!positive) {
            throw new IllegalArgumentException("--rate-schedule needs a rate > 0 somewhere");
        }
    }

    /**
     * Reads {@code TIME:RATE[,TIME:RATE...]}, e.g. {@code 0s:2,60s:20,120s:20,180s:2}. A time is a number with an
     * optional unit {@code ms}, {@code s} (the default) or {@code m}; a rate is requests per second.
     *
     * @param text the option's value; not null
     * @return the schedule
     * @throws IllegalArgumentException for text that cannot be read or breaks a rule, with a one-line message
     */
    public static RateSchedule parse(String text) {
        List<Point> out = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String p = part.strip();
            int colon = p.indexOf(':');
            if (colon <= 0 || colon == p.length() - 1) {
                throw new IllegalArgumentException("--rate-schedule expects TIME:RATE points separated by commas"
                        + " (e.g. 0s:2,60s:20), got '" + part.strip() + "'");
            }
            double at = seconds(p.substring(0, colon).strip(), part);
            double rate;
            try {
                rate = Double.parseDouble(p.substring(colon + 1).strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--rate-schedule rate must be a number of requests/s, got '"
                        + p.substring(colon + 1).strip() + "'");
            }
            out.add(new Point(at, rate));
        }
        return new RateSchedule(out);
    }

    private static double seconds(String t, String part) {
        String lower = t.toLowerCase(Locale.ROOT);
        double scale = 1;
        String num = lower;
        if (lower.endsWith("ms")) {
            scale = 0.001;
            num = lower.substring(0, lower.length() - 2);
        } else if (lower.endsWith("s")) {
            num = lower.substring(0, lower.length() - 1);
        } else if (lower.endsWith("m")) {
            scale = 60;
            num = lower.substring(0, lower.length() - 1);
        }
        try {
            return Double.parseDouble(num.strip()) * scale;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rate-schedule time must be a number with an optional unit ms, s"
                    + " or m, got '" + t + "' in '" + part.strip() + "'");
        }
    }

    /** @return the canonical text, e.g. {@code 0s:2,60s:20} (seconds, shortest decimal form); parses back equal */
    public String canonical() {
        StringBuilder b = new StringBuilder();
        for (Point p : points) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(fmt(p.atS())).append("s:").append(fmt(p.rateRps()));
        }
        return b.toString();
    }

    /**
     * @param tS seconds after T0
     * @return the offered rate at {@code tS}, requests/s: linear between points, the first rate before the first
     *         point, the last rate after the last
     */
    public double rateAt(double tS) {
        Point first = points.get(0);
        if (tS <= first.atS()) {
            return first.rateRps();
        }
        for (int i = 1; i < points.size(); i++) {
            Point b = points.get(i);
            if (tS <= b.atS()) {
                Point a = points.get(i - 1);
                return a.rateRps() + (b.rateRps() - a.rateRps()) * (tS - a.atS()) / (b.atS() - a.atS());
            }
        }
        return points.get(points.size() - 1).rateRps();
    }

    /**
     * Λ(t): the integral of {@link #rateAt} from 0 to {@code tS}, the number of arrivals the schedule offers by then.
     *
     * @param tS seconds after T0, &gt;= 0
     * @return expected arrivals in {@code [0, tS]}
     */
    public double expectedArrivals(double tS) {
        double sum = 0;
        double prevT = 0;
        double prevR = rateAt(0);
        for (Point p : points) {
            if (p.atS() <= prevT) {
                continue;
            }
            double end = Math.min(p.atS(), tS);
            double endR = rateAt(end);
            sum += (prevR + endR) / 2 * (end - prevT);
            if (end >= tS) {
                return sum;
            }
            prevT = end;
            prevR = endR;
        }
        return sum + (tS - prevT) * prevR;
    }

    /**
     * Λ⁻¹(u): the time by which the schedule has offered {@code u} arrivals.
     *
     * @param u expected arrivals, &gt;= 0
     * @return seconds after T0, or {@link Double#POSITIVE_INFINITY} when the schedule never offers that many (its
     *         last rate is 0)
     */
    public double timeOf(double u) {
        double prevT = 0;
        double prevR = rateAt(0);
        double cum = 0;
        for (Point p : points) {
            if (p.atS() <= prevT) {
                continue;
            }
            double r = p.rateRps();
            double seg = (prevR + r) / 2 * (p.atS() - prevT);
            if (cum + seg >= u) {
                return prevT + solve(u - cum, prevR, (r - prevR) / (p.atS() - prevT));
            }
            cum += seg;
            prevT = p.atS();
            prevR = r;
        }
        return prevR > 0 ? prevT + (u - cum) / prevR : Double.POSITIVE_INFINITY;
    }

    /** @return the x &gt;= 0 with r0·x + slope·x²/2 = area (the rate r0 + slope·x stays &gt;= 0 on the segment) */
    private static double solve(double area, double r0, double slope) {
        if (area <= 0) {
            return 0;
        }
        if (Math.abs(slope) < 1e-12) {
            return area / r0;
        }
        double disc = Math.max(0, r0 * r0 + 2 * slope * area);
        // the numerically stable root of slope/2 x^2 + r0 x - area = 0
        return 2 * area / (r0 + Math.sqrt(disc));
    }

    /** @return the time of the last point, seconds after T0 */
    public double lastPointS() {
        return points.get(points.size() - 1).atS();
    }

    private static String fmt(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }
}
