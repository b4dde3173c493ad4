#!/usr/bin/env python3
"""Prints bench/workloads/run.sh's side-by-side tables from its results directory.

    python3 bench/workloads/table.py OUT chat responses messages

Reads OUT/llama-<api>.json (capstream reports), OUT/llama-<api>.server.log (llama-server's log: one
`prompt eval time` / `eval time` pair per request) and OUT/sim-agent.json. Percentiles are nearest-rank (spec §8.1).
A missing file or field prints as '-'.
"""
import json
import math
import re
import sys

PROMPT_RE = re.compile(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens")
EVAL_RE = re.compile(r"(?<!prompt )\beval time =\s*([\d.]+) ms /\s*(\d+) tokens")


def pct(values, q):
    v = sorted(x for x in values if x is not None)
    return v[max(0, math.ceil(q * len(v) / 100) - 1)] if v else None


def fmt(v, d=1):
    return "-" if v is None else f"{v:.{d}f}"


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def server_log(path):
    """llama-server's own per-request timings: prompt ms, prompt tokens, decode tok/s (eval tokens / eval time)."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return [], [], []
    prompt_ms = [float(m) for m, _ in PROMPT_RE.findall(text)]
    prompt_n = [int(n) for _, n in PROMPT_RE.findall(text)]
    decode = [int(n) / (float(ms) / 1000) for ms, n in EVAL_RE.findall(text) if float(ms) > 0 and int(n) > 1]
    return prompt_ms, prompt_n, decode


def series(a, name):
    s = ((a.get("capstream") or {}).get("server_metrics") or {}).get("series") or {}
    return (s.get(name) or {}).get("increase")


def by_turn(a):
    return ((a or {}).get("capstream") or {}).get("sessions", {}) or {}


def main(out, endpoints):
    print()
    print("Per API on llama-server (client = capstream's report; server = llama-server's own log and /metrics)")
    head = (f"{'api':10}{'ok':>7}{'TTFT p50':>10}{'TTFT p95':>10}{'TPOT p50':>10}{'dec tok/s':>11}"
            f"{'srv prompt_ms p50':>19}{'srv dec tok/s':>15}{'TTFT-srv p50':>14}"
            f"{'prompt tok':>12}{'srv prompt+cached':>19}{'out tok':>9}{'srv out':>9}")
    print(head)
    reports = {}
    for ep in endpoints:
        a = load(f"{out}/llama-{ep}.json")
        reports[ep] = a
        if a is None:
            print(f"{ep:10}  (no report)")
            continue
        m = a.get("metrics") or {}
        rows = a.get("request_timings") or []
        srv_prompt, _, srv_dec = server_log(f"{out}/llama-{ep}.server.log")
        t50, s50 = m.get("ttft_p50_ms"), pct(srv_prompt, 50)
        sp, sc = series(a, "prompt_tokens"), series(a, "prefix_cache_hit_tokens")
        print(f"{ep:10}{str(a.get('completed')) + '/' + str(a.get('requests')):>7}{fmt(t50):>10}{fmt(m.get('ttft_p95_ms')):>10}"
              f"{fmt(m.get('mean_inter_token_latency_ms_p50'), 2):>10}{fmt(m.get('decode_tok_s_p50')):>11}"
              f"{fmt(s50):>19}{fmt(pct(srv_dec, 50)):>15}{fmt(None if t50 is None or s50 is None else t50 - s50):>14}"
              f"{sum(r.get('prompt_tokens') or 0 for r in rows):>12}"
              f"{'-' if sp is None or sc is None else f'{sp:.0f}+{sc:.0f}':>19}"
              f"{sum(r.get('output_tokens') or 0 for r in rows):>9}{fmt(series(a, 'generation_tokens'), 0):>9}")
    print()
    print("Per turn (capstream.sessions.by_turn): requests, TTFT p50 ms, prompt tokens p50, cached prompt tokens p50")
    print(f"{'api':10}{'turn':>5}{'requests':>10}{'TTFT p50':>10}{'prompt p50':>12}{'cached p50':>12}")
    for ep, a in reports.items():
        s = by_turn(a)
        if not s.get("by_turn"):
            print(f"{ep:10}  (no capstream.sessions.by_turn)")
        for t in s.get("by_turn") or []:
            print(f"{ep:10}{t.get('turn'):>5}{t.get('requests'):>10}{fmt(t.get('ttft_p50_ms')):>10}"
                  f"{fmt(t.get('prompt_tokens_p50'), 0):>12}{fmt(t.get('cached_prompt_tokens_p50'), 0):>12}")
    print()
    a = load(f"{out}/sim-agent.json")
    print("Agent loop on the built-in sim (--tools, --sim-tool-call-rate 1, --turns 2)")
    if a is None:
        print("  (no report)")
        return
    s = by_turn(a)
    m = a.get("metrics") or {}
    print(f"  {a.get('completed')}/{a.get('requests')} ok, conversations {s.get('conversations', '-')}, "
          f"tool_calls {s.get('tool_calls', '-')}, TTFT p50 {fmt(m.get('ttft_p50_ms'))} ms")
    for t in s.get("by_turn") or []:
        print(f"  turn {t.get('turn')}: {t.get('requests')} requests, TTFT p50 {fmt(t.get('ttft_p50_ms'))} ms, prompt "
              f"p50 {fmt(t.get('prompt_tokens_p50'), 0)}, cached p50 {fmt(t.get('cached_prompt_tokens_p50'), 0)}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
