#!/usr/bin/env python3
"""Inter-arrival statistics of a capstream --csv file (issue 30, bench/arrivals).

Usage: interarrival_cv.py FILE.csv [BUCKET_S [SCHEDULE]]

Prints, for the requests' actual starts (start_ms) and their scheduled starts (start_ms - queue_ms): the count, the
mean gap (ms) and the coefficient of variation of the gaps (stddev / mean). With BUCKET_S also the achieved starts
per bucket of that many seconds (req/s), beside the offered rate of a --rate-schedule SCHEDULE (e.g.
0s:2,10s:20,20s:20,30s:2; the mean rate over the bucket, Λ(b+BUCKET_S)-Λ(b) over BUCKET_S).
"""
import csv
import math
import sys


def cv(times):
    times = sorted(times)
    gaps = [b - a for a, b in zip(times, times[1:])]
    if len(gaps) < 2:
        return len(times), float("nan"), float("nan")
    mean = sum(gaps) / len(gaps)
    var = sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1)
    return len(times), mean, math.sqrt(var) / mean if mean > 0 else float("nan")


def parse_schedule(text):
    points = []
    for part in text.split(","):
        t, r = part.split(":")
        t = t.strip().lower()
        scale = 0.001 if t.endswith("ms") else 60 if t.endswith("m") else 1
        points.append((float(t.rstrip("ms")) * scale, float(r)))
    return points


def rate_at(points, t):
    if t <= points[0][0]:
        return points[0][1]
    for (t0, r0), (t1, r1) in zip(points, points[1:]):
        if t <= t1:
            return r0 + (r1 - r0) * (t - t0) / (t1 - t0)
    return points[-1][1]


def offered(points, a, b, steps=1000):
    # the mean rate over [a, b] by the trapezoid rule (exact enough for a piecewise-linear rate)
    h = (b - a) / steps
    return sum((rate_at(points, a + i * h) + rate_at(points, a + (i + 1) * h)) / 2 for i in range(steps)) * h / (b - a)


def main():
    rows = list(csv.DictReader(open(sys.argv[1], newline="")))
    starts = [float(r["start_ms"]) for r in rows if r.get("start_ms")]
    scheduled = [float(r["start_ms"]) - float(r["queue_ms"] or 0) for r in rows if r.get("start_ms")]
    for name, t in (("achieved (start_ms)", starts), ("scheduled (start_ms - queue_ms)", scheduled)):
        n, mean, c = cv(t)
        print(f"{name}: n={n} mean_gap_ms={mean:.2f} cv={c:.3f}")
    if len(sys.argv) > 2:
        bucket = float(sys.argv[2])
        counts = {}
        for s in starts:
            counts[int(s / 1000 / bucket)] = counts.get(int(s / 1000 / bucket), 0) + 1
        points = parse_schedule(sys.argv[3]) if len(sys.argv) > 3 else None
        for b in range(0, max(counts) + 1):
            line = f"  {b * bucket:7.1f}-{(b + 1) * bucket:7.1f} s: achieved {counts.get(b, 0) / bucket:7.2f} req/s"
            if points:
                line += f", offered {offered(points, b * bucket, (b + 1) * bucket):7.2f} req/s"
            print(line)


if __name__ == "__main__":
    main()
