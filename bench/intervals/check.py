#!/usr/bin/env python3
"""Independent check of capstream's quantile confidence intervals (issue 32, deliverable 5).

Run through bench/intervals/run.sh (it builds the classes and sets CAPSTREAM_INTERVALS_CP), or alone with
--skip-capstream for the Python parts only.

1. ranks: the 95% distribution-free interval of the p-quantile of n values is [x(l), x(u)] with the equal-tailed
   ranks l = 1 + max{k : B(k) <= 0.025}, u = 1 + min{k : B(k) >= 0.975}, B the Binomial(n, p) CDF (Conover,
   Practical Nonparametric Statistics, 3.2; Hahn & Meeker, Statistical Intervals, 5.2). Computed here in exact
   integer arithmetic (math.comb recurrence over p = a/d, no floating point), independent of capstream's Hipparchus.
2. comparison: samples of an exponential, a lognormal and a bimodal mixture at several n go to IntervalDump.java
   (capstream's Distributions.of, the run report's path, and SketchQuantiles.of, the windows' DDSketch path); the
   report's interval must be exactly [x(l), x(u)], the window's must hold it and lie within the sketch's relative
   accuracy alpha of it (low in [x(l)(1-a)/(1+a), x(l)], high in [x(u), x(u)(1+a)/(1-a)]); both must say "too few"
   exactly when l < 1 or u > n.
3. coverage: repeated samples (numpy) from each distribution; the share of intervals that contain the true quantile.
4. --widths: typical relative width of the p95 and p99 intervals of a lognormal latency (sigma 0.5 of the log), and
   the requests needed for a given width (docs/user-guide.md's table).

Exits 1 when any comparison fails.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist

import numpy as np

LEVEL = Fraction(95, 100)
TAIL = (1 - LEVEL) / 2  # 1/40
ALPHA = 0.01  # the windows' DDSketch relative accuracy (Sketches.DEFAULT_RELATIVE_ACCURACY)


@lru_cache(maxsize=None)
def ranks(n, p):
    """(l, u) 1-based, or None when the sample is too small; p a Fraction. Exact integer arithmetic."""
    a, d = p.numerator, p.denominator
    b = d - a
    total = d ** n
    # B(k) * d^n = sum_{j<=k} comb(n, j) a^j b^(n-j); term_{j+1} = term_j (n-j) a / ((j+1) b), exact
    term = b ** n
    cum = 0
    lo_k = -1  # largest k with B(k) <= tail
    up_k = None  # smallest k with B(k) >= 1 - tail
    t_num, t_den = TAIL.numerator, TAIL.denominator
    for j in range(n + 1):
        cum += term
        if cum * t_den <= t_num * total:
            lo_k = j
        if up_k is None and cum * t_den >= (t_den - t_num) * total:
            up_k = j
            break
        if j < n:
            term = term * (n - j) * a // ((j + 1) * b)
    l, u = lo_k + 1, up_k + 1
    if l < 1 or u > n:
        return None
    return l, u


@lru_cache(maxsize=None)
def ranks_fast(n, pct):
    """ranks() in floating point (scipy's binomial), for the width tables' large n; same definition."""
    from scipy.stats import binom
    b = binom(n, pct / 100)
    t = float(TAIL)
    k = int(b.ppf(t))  # smallest k with B(k) >= t
    lo_k = k if b.cdf(k) <= t else k - 1
    u = int(b.ppf(1 - t)) + 1
    l = lo_k + 1
    return None if l < 1 or u > n else (l, u)


@lru_cache(maxsize=None)
def minimum_sample(p):
    n = 1
    while ranks(n, p) is None:
        n += 1
    return n


def nearest_rank(n, pct):
    return max(1, math.ceil(pct * n / 100))


# ---- distributions with their true quantiles ---------------------------------------------------------------------
def _bisect(cdf, p, lo, hi):
    for _ in range(200):
        mid = (lo + hi) / 2
        if cdf(mid) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


class Exponential:
    name = "exponential (mean 200 ms)"

    def sample(self, rng, size):
        return rng.exponential(200.0, size)

    def quantile(self, p):
        return -200.0 * math.log(1 - p)


class LogNormal:
    def __init__(self, median=400.0, sigma=0.5):
        self.mu, self.sigma = math.log(median), sigma
        self.name = f"lognormal (median {median:g} ms, sigma {sigma:g})"

    def sample(self, rng, size):
        return rng.lognormal(self.mu, self.sigma, size)

    def quantile(self, p):
        return math.exp(self.mu + self.sigma * NormalDist().inv_cdf(p))


class Bimodal:
    """80% normal(300, 30) (cache hits), 20% normal(1200, 150) (misses); both far from 0."""
    name = "bimodal (80% N(300,30) + 20% N(1200,150) ms)"
    w, a, b = 0.8, NormalDist(300, 30), NormalDist(1200, 150)

    def sample(self, rng, size):
        hit = rng.random(size) < self.w
        return np.where(hit, rng.normal(300, 30, size), rng.normal(1200, 150, size))

    def quantile(self, p):
        return _bisect(lambda x: self.w * self.a.cdf(x) + (1 - self.w) * self.b.cdf(x), p, 0.0, 5000.0)


DISTRIBUTIONS = [Exponential(), LogNormal(), Bimodal()]
REPORT_PCTS = [50, 90, 95, 99]
WINDOW_PCTS = [50, 95, 99]


# ---- 2. comparison with capstream ---------------------------------------------------------------------------------
def compare_with_capstream(sizes, seed):
    cp = os.environ.get("CAPSTREAM_INTERVALS_CP")
    if not cp:
        sys.exit("CAPSTREAM_INTERVALS_CP is not set: run bench/intervals/run.sh (or pass --skip-capstream)")
    rng = np.random.default_rng(seed)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for dist in DISTRIBUTIONS:
            for n in sizes:
                x = dist.sample(rng, n)
                path = os.path.join(tmp, f"{len(cases)}.txt")
                with open(path, "w") as f:
                    f.write("\n".join(repr(float(v)) for v in x))
                cases.append((dist, n, np.sort(x), path))
        here = os.path.dirname(os.path.abspath(__file__))
        out = subprocess.run(["java", "-cp", cp, os.path.join(here, "IntervalDump.java")] + [c[3] for c in cases],
                             check=True, capture_output=True, text=True).stdout
    results = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert len(results) == len(cases), f"{len(results)} results for {len(cases)} cases"
    failures, rows = [], []
    for (dist, n, xs, _), res in zip(cases, results):
        for pct in REPORT_PCTS:
            p = Fraction(pct, 100)
            r = ranks(n, p)
            got = res["report"][f"p{pct}_ci"]
            reason = (res["report"]["ci_unavailable"] or {}).get(f"p{pct}")
            point = res["report"][f"p{pct}"]
            if point != float(xs[nearest_rank(n, pct) - 1]):
                failures.append(f"{dist.name} n={n} p{pct}: point {point} != {xs[nearest_rank(n, pct) - 1]}")
            if r is None:
                want = f"{n} values are too few for a 95% interval of p{pct} (needs at least {minimum_sample(p)})"
                ok = got is None and reason == want
                rows.append((dist.name, n, f"p{pct}", "-", "none", "none" if got is None else got, ok))
                if not ok:
                    failures.append(f"{dist.name} n={n} p{pct}: expected no interval ({want}), got {got} {reason}")
                continue
            l, u = r
            want = [float(xs[l - 1]), float(xs[u - 1])]
            ok = got == want and reason is None
            rows.append((dist.name, n, f"p{pct}", f"{l}..{u}", fmt(want), fmt(got), ok))
            if not ok:
                failures.append(f"{dist.name} n={n} p{pct}: report interval {got}, independent {want} (ranks {l}..{u})")
        for pct in WINDOW_PCTS:
            r = ranks(n, Fraction(pct, 100))
            got = res["window"][f"p{pct}_ci"]
            if r is None:
                if got is not None or f"p{pct}" not in (res["window"]["ci_unavailable"] or {}):
                    failures.append(f"{dist.name} n={n} window p{pct}: expected no interval, got {got}")
                continue
            lo, hi = float(xs[r[0] - 1]), float(xs[r[1] - 1])
            eps = 1e-12
            if got is None or not (lo * (1 - ALPHA) / (1 + ALPHA) * (1 - eps) <= got[0] <= lo
                                   and hi <= got[1] <= hi * (1 + ALPHA) / (1 - ALPHA) * (1 + eps)):
                failures.append(f"{dist.name} n={n} window p{pct}: sketch interval {got} does not hold "
                                f"[{lo}, {hi}] within alpha {ALPHA}")
    return rows, failures


def fmt(v):
    return "none" if v is None else "[" + ", ".join(f"{x:.6g}" for x in v) + "]"


# ---- 3. coverage ---------------------------------------------------------------------------------------------------
def coverage(sizes, trials, seed):
    rng = np.random.default_rng(seed)
    table = []
    for dist in DISTRIBUTIONS:
        for n in sizes:
            x = np.sort(dist.sample(rng, (trials, n)), axis=1)
            row = [dist.name, n]
            for pct in WINDOW_PCTS:
                r = ranks(n, Fraction(pct, 100))
                if r is None:
                    row.append(f"none (n < {minimum_sample(Fraction(pct, 100))})")
                    continue
                truth = dist.quantile(pct / 100)
                hit = np.mean((x[:, r[0] - 1] <= truth) & (truth <= x[:, r[1] - 1]))
                row.append(f"{hit:.3f}")
            table.append(row)
    return table


# ---- 4. widths -------------------------------------------------------------------------------------------------------
def typical_ends(n, pct, dist):
    """Typical ends of the interval, relative to the true quantile: the median of each end. The k-th smallest of n
    values is Q(U(k)) with U(k) ~ Beta(k, n + 1 - k) (uniform order statistics), so its median is exactly
    Q(median of that Beta); None when n is too small."""
    from scipy.stats import beta
    r = ranks_fast(n, pct)
    if r is None:
        return None
    truth = dist.quantile(pct / 100)
    ends = [dist.quantile(float(beta.median(k, n + 1 - k))) / truth - 1 for k in r]
    return ends[0], ends[1]


def widths(sigma=0.5):
    """Typical relative width (high - low) / true quantile and the ends as -a% / +b% of the true quantile."""
    dist = LogNormal(400.0, sigma)
    rows = []
    for n in [50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000]:
        row = [f"{n:,}"]
        for pct in (50, 95, 99):
            e = typical_ends(n, pct, dist)
            row.append("none" if e is None else f"{(e[1] - e[0]) * 100:.0f}% ({e[0] * 100:+.0f}%, {e[1] * 100:+.0f}%)")
        rows.append(row)
    return dist.name, rows


def needed(sigma=0.5):
    """Smallest n (on a 1% grid) from which the typical relative width stays at or below each target."""
    dist = LogNormal(400.0, sigma)

    def width(n, pct):
        e = typical_ends(n, pct, dist)
        return math.inf if e is None else e[1] - e[0]

    grid = sorted({int(round(50 * 1.01 ** i)) for i in range(0, 720)})
    out = []
    for target in (0.50, 0.30, 0.20, 0.10, 0.05):
        row = [f"{target * 100:.0f}%"]
        for pct in (95, 99):
            ws = [(n, width(n, pct)) for n in grid]
            ok = [n for i, (n, _) in enumerate(ws) if all(w <= target for _, w in ws[i:])]
            row.append(f"{ok[0]:,}" if ok else f"> {grid[-1]:,}")
        out.append(row)
    return dist.name, out


def markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="5,20,40,72,100,200,368,1000,5000")
    ap.add_argument("--coverage-sizes", default="20,100,400,1000,5000")
    ap.add_argument("--coverage-trials", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--skip-capstream", action="store_true")
    ap.add_argument("--skip-coverage", action="store_true")
    ap.add_argument("--widths", action="store_true")
    ap.add_argument("--ranks", action="store_true", help="print the independent ranks the JUnit test copies")
    args = ap.parse_args()
    failures = []
    if args.ranks:
        print("## Independent ranks (exact binomial, integer arithmetic)\n")
        rows = []
        for n, pct in [(20, 50), (100, 50), (100, 95), (200, 50), (200, 95), (400, 99), (1000, 99), (5000, 95)]:
            r = ranks(n, Fraction(pct, 100))
            rows.append((n, f"p{pct}", "none" if r is None else f"{r[0]}..{r[1]}"))
        rows.append(("minimum n", "p50 / p90 / p95 / p99", " / ".join(
            str(minimum_sample(Fraction(p, 100))) for p in (50, 90, 95, 99))))
        print(markdown(["n", "percentile", "ranks l..u"], rows) + "\n")
    if not args.skip_capstream:
        sizes = [int(s) for s in args.sizes.split(",")]
        rows, failures = compare_with_capstream(sizes, args.seed)
        agree = sum(1 for r in rows if r[6])
        print(f"## capstream against the independent computation\n\n{agree} of {len(rows)} report intervals "
              f"identical, window (DDSketch) intervals checked at p50/p95/p99: "
              f"{'all hold the exact interval within alpha' if not any('window' in f for f in failures) else 'FAILURES'}"
              f"\n")
        print(markdown(["distribution", "n", "pct", "ranks", "independent", "capstream (report)", "same"],
                       [r for r in rows if r[2] in ("p50", "p95", "p99") and r[1] in (40, 100, 368, 5000)]))
        print()
        for f in failures:
            print("FAIL:", f)
    if not args.skip_coverage:
        sizes = [int(s) for s in args.coverage_sizes.split(",")]
        print(f"## Coverage: share of {args.coverage_trials} intervals (95%) that contain the true quantile\n")
        print(markdown(["distribution", "n", "p50", "p95", "p99"],
                       coverage(sizes, args.coverage_trials, args.seed + 1)))
        print()
    if args.widths:
        name, rows = widths()
        print(f"## Typical 95% interval of a {name}: width relative to the true quantile "
              f"(and its ends; the median of each end)\n")
        print(markdown(["requests", "p50", "p95", "p99"], rows))
        print()
        name, rows = needed()
        print(f"## Requests needed for a 95% interval no wider than a share of the quantile, {name}\n")
        print(markdown(["width (high - low) / value", "p95", "p99"], rows))
        print()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
