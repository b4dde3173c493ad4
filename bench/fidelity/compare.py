#!/usr/bin/env python3
"""Statistics helper of the fidelity benchmark (stdlib only). Percentiles are nearest-rank (spec §8.1).

  compare.py warmup URL N PARALLEL                 N streaming requests without a request index (the oracle logs
                                                   them as -1, so client_added.py ignores them)
  compare.py oracle LABEL REPORT ORACLE_LOG TIMEFILE SUMMARY.jsonl
                                                   client-added TTFT/E2E against the oracle's own times, process
                                                   CPU/wall, achieved concurrency; appends one line to SUMMARY.jsonl
  compare.py oracle-table SUMMARY.jsonl            one table of every scenario
  compare.py llama DIR                             per client and round: client TTFT/E2E/decode p50, llama-server's
                                                   own prompt_ms / predicted_per_second p50, process CPU; ratios of
                                                   each client (capstream, or a NAME of llama.sh's CLIENTS) to the
                                                   reference runner's in the same round
"""
import json
import math
import os
import re
import sys
import threading
import urllib.request


def pct(values, q):
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    return v[max(0, math.ceil(q * len(v) / 100) - 1)]


def med(values):
    return pct(values, 50)


def fmt(v, d=1, w=0):
    s = "-" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{d}f}"
    return s.rjust(w) if w else s


def read_time(path):
    """GNU time -f '%e %U %S' output (the last line; earlier lines may be 'Command exited with ...')."""
    try:
        lines = [l for l in open(path).read().splitlines() if l.strip()]
        e, u, s = (float(x) for x in lines[-1].split()[:3])
        return {"wall_s": e, "user_s": u, "sys_s": s, "cpu_s": u + s}
    except Exception:
        return None


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception:
        return None


def client_obj(art):
    """Achieved-concurrency information, verbatim: capstream's `capstream.client`, or the reference runner's."""
    cs = art.get("capstream")
    if isinstance(cs, dict) and "client" in cs:
        return "capstream.client", cs["client"]
    rr = art.get("reference_runner")
    if isinstance(rr, dict) and "client" in rr:
        return "reference_runner.client", rr["client"]
    if isinstance(art.get("floor_client"), dict):
        return "floor_client", art["floor_client"]
    return None, None


def client_cpu(art):
    rr = art.get("reference_runner") if art else None
    return rr.get("process_cpu_s") if isinstance(rr, dict) else None


# ---------------------------------------------------------------- warm-up
def warmup(url, n, par):
    body = json.dumps({"model": "oracle", "messages": [{"role": "user", "content": "warm-up, no index"}],
                       "max_tokens": 64, "stream": True}).encode()
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    todo = list(range(n))
    lock = threading.Lock()
    errors = []

    def w():
        while True:
            with lock:
                if not todo:
                    return
                todo.pop()
            try:
                req = urllib.request.Request(url.rstrip("/") + "/chat/completions", data=body,
                                             headers={"Content-Type": "application/json"})
                with opener.open(req, timeout=30) as r:
                    for _ in r:
                        pass
            except Exception as e:
                errors.append(repr(e))

    ts = [threading.Thread(target=w) for _ in range(par)]
    for t in ts: t.start()
    for t in ts: t.join()
    if errors:
        print(f"warm-up: {len(errors)}/{n} failed, e.g. {errors[0]}", file=sys.stderr)
        return 1
    return 0


# ---------------------------------------------------------------- oracle scenarios
def oracle_log(path):
    first, end = {}, {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 4 and p[2] != "error":
                i = int(p[0])
                if i >= 0:
                    first[i], end[i] = float(p[2]), float(p[3])
    return first, end


def oracle(label, report, log, timefile, summary):
    art = load(report)
    t = read_time(timefile)
    rec = {"label": label, "report": report}
    if t:
        rec.update({"process_wall_s": t["wall_s"], "process_cpu_s": t["cpu_s"], "user_s": t["user_s"],
                    "sys_s": t["sys_s"]})
    if art is None:
        print(f"  no report ({report})")
    else:
        first, end = oracle_log(log) if os.path.exists(log) else ({}, {})
        rows = art.get("request_timings") or []
        ta = [r["ttft_ms"] - first[r["request_index"]] for r in rows if r["request_index"] in first]
        ea = [r["e2e_ms"] - end[r["request_index"]] for r in rows if r["request_index"] in end]
        m = art.get("metrics") or {}
        rec.update({
            "requests": art.get("requests"), "concurrency": art.get("concurrency"), "failed": art.get("failed"),
            "joined": len(ta), "added_ttft_p50": pct(ta, 50), "added_ttft_p99": pct(ta, 99),
            "added_ttft_max": max(ta) if ta else None, "added_e2e_p50": pct(ea, 50), "added_e2e_p99": pct(ea, 99),
            "ttft_p50": m.get("ttft_p50_ms"), "ttft_p95": m.get("ttft_p95_ms"),
            "oracle_first_p50": pct(list(first.values()), 50), "oracle_first_max": max(first.values()) if first else None,
            "report_wall_s": (art.get("wall_clock_ms") or 0) / 1000, "throughput_tok_s": m.get("throughput_tok_s"),
            "runner_cpu_s": client_cpu(art),
        })
        print(f"  client-added E2E p50={fmt(rec['added_e2e_p50'], 2)} p99={fmt(rec['added_e2e_p99'], 2)} ms; "
              f"client TTFT p50={fmt(rec['ttft_p50'], 2)} p95={fmt(rec['ttft_p95'], 2)} ms; "
              f"oracle's own first-chunk p50={fmt(rec['oracle_first_p50'], 2)} max={fmt(rec['oracle_first_max'], 2)} ms")
        key, obj = client_obj(art)
        rec["client_key"], rec["client"] = key, obj
        if key:
            print(f"  {key}: {json.dumps(obj, sort_keys=True)}")
        else:
            print("  achieved concurrency: (report has no capstream.client object)")
    if t:
        extra = f"; runner's own getrusage {rec['runner_cpu_s']:.2f} s" if rec.get("runner_cpu_s") is not None else ""
        print(f"  process: wall {t['wall_s']:.2f} s, CPU {t['cpu_s']:.2f} s (user {t['user_s']:.2f} + sys {t['sys_s']:.2f}){extra}")
    with open(summary, "a") as f:
        f.write(json.dumps(rec) + "\n")
    return 0


def oracle_table(summary):
    recs = [json.loads(l) for l in open(summary) if l.strip()]
    hdr = ["scenario", "req", "conc", "fail", "added p50", "p99", "max", "E2E+ p50", "TTFT p50", "proc wall s",
           "proc CPU s", "achieved (client object)"]
    rows = []
    for r in recs:
        c = r.get("client")
        rows.append([r["label"], str(r.get("requests", "-")), str(r.get("concurrency", "-")), str(r.get("failed", "-")),
                     fmt(r.get("added_ttft_p50"), 2), fmt(r.get("added_ttft_p99"), 2), fmt(r.get("added_ttft_max"), 2),
                     fmt(r.get("added_e2e_p50"), 2), fmt(r.get("ttft_p50"), 1), fmt(r.get("process_wall_s"), 1),
                     fmt(r.get("process_cpu_s"), 1), json.dumps(c, sort_keys=True) if c is not None else "-"])
    w = [max(len(x) for x in col) for col in zip(hdr, *rows)]
    for line in [hdr] + rows:
        print("  ".join(x.ljust(w[i]) if i in (0, len(w) - 1) else x.rjust(w[i]) for i, x in enumerate(line)))
    return 0


# ---------------------------------------------------------------- llama-server rounds
PROMPT_RE = re.compile(r"prompt eval time =\s*([\d.]+) ms /\s*(\d+) tokens \(.*?([\d.]+) tokens per second\)")
EVAL_RE = re.compile(r"(?<!prompt )\beval time =\s*([\d.]+) ms /\s*(\d+) tokens \(.*?([\d.]+) tokens per second\)")


def server_log(path):
    """llama-server's per-task timing lines, in log (= completion) order."""
    prompt, pred = [], []
    if not os.path.exists(path):
        return prompt, pred
    for line in open(path, errors="replace"):
        m = PROMPT_RE.search(line)
        if m:
            prompt.append({"prompt_ms": float(m.group(1)), "prompt_n": int(m.group(2))})
            continue
        m = EVAL_RE.search(line)
        if m:
            pred.append({"predicted_ms": float(m.group(1)), "predicted_n": int(m.group(2)),
                         "predicted_per_second": float(m.group(3))})
    return prompt, pred


def llama(d):
    runs = {}
    for name in sorted(os.listdir(d)):
        m = re.fullmatch(r"r(\d+)-(\w+)\.json", name)
        if m:
            runs[(int(m.group(1)), m.group(2))] = name[:-5]
    if not runs:
        print(f"no r<N>-<client>.json reports in {d}")
        return 1
    res = {}
    for (rnd, client), base in sorted(runs.items()):
        art = load(os.path.join(d, base + ".json")) or {}
        rows = art.get("request_timings") or []
        m = art.get("metrics") or {}
        t = read_time(os.path.join(d, base + ".time"))
        sp, se = server_log(os.path.join(d, base + ".server.log"))
        st = [r["server_timings"] for r in rows if isinstance(r.get("server_timings"), dict)]
        res[(rnd, client)] = {
            "n": len(rows), "failed": art.get("failed"),
            "ttft": pct([r["ttft_ms"] for r in rows], 50), "e2e": pct([r["e2e_ms"] for r in rows], 50),
            "decode": pct([r.get("decode_tok_s") for r in rows], 50),
            "ttft_p95": m.get("ttft_p95_ms"),
            "srv_n": len(sp), "srv_prompt_ms": pct([x["prompt_ms"] for x in sp], 50),
            "srv_prompt_n": pct([x["prompt_n"] for x in sp], 50),
            "srv_pred_tok_s": pct([x["predicted_per_second"] for x in se], 50),
            "st_n": len(st), "st_prompt_ms": pct([x.get("prompt_ms") for x in st], 50),
            "st_pred_tok_s": pct([x.get("predicted_per_second") for x in st], 50),
            "cpu": t["cpu_s"] if t else None, "wall": t["wall_s"] if t else None,
            "report_wall": (art.get("wall_clock_ms") or 0) / 1000 or None,
            "cached": m.get("prefix_cache_hit_avg"),
        }
    hdr = ["round", "client", "ok", "fail", "TTFT p50", "E2E p50", "decode p50", "srv prompt_ms p50",
           "srv prompt_n p50", "srv pred tok/s p50", "stream timings prompt_ms/pred tok/s p50", "TTFT-srv prompt_ms",
           "cache hit", "proc CPU s", "proc wall s"]
    rows = []
    for (rnd, client), r in sorted(res.items()):
        st = "-" if not r["st_n"] else f"{fmt(r['st_prompt_ms'], 2)} / {fmt(r['st_pred_tok_s'], 1)} (n={r['st_n']})"
        gap = r["ttft"] - r["srv_prompt_ms"] if r["ttft"] is not None and r["srv_prompt_ms"] is not None else None
        rows.append([str(rnd), client, str(r["n"]), str(r["failed"]), fmt(r["ttft"], 2), fmt(r["e2e"], 2),
                     fmt(r["decode"], 1), f"{fmt(r['srv_prompt_ms'], 2)} (n={r['srv_n']})", fmt(r["srv_prompt_n"], 0),
                     fmt(r["srv_pred_tok_s"], 1), st, fmt(gap, 2),
                     fmt(r["cached"] * 100 if r["cached"] is not None else None, 1) + "%", fmt(r["cpu"], 2),
                     fmt(r["wall"], 2)])
    w = [max(len(x) for x in col) for col in zip(hdr, *rows)]
    for line in [hdr] + rows:
        print("  ".join(x.rjust(w[i]) if i not in (1,) else x.ljust(w[i]) for i, x in enumerate(line)))
    print()
    clients = sorted({c for _, c in res}, key=lambda c: (c == "reference", c != "capstream", c))
    keys = [("ttft", "TTFT p50"), ("e2e", "E2E p50"), ("decode", "decode p50"), ("srv_prompt_ms", "srv prompt_ms p50"),
            ("srv_pred_tok_s", "srv pred tok/s p50"), ("cpu", "proc CPU")]
    for client in clients:
        if client == "reference":
            continue
        print(f"ratios {client} / reference (same round):")
        ratios = {k: [] for k, _ in keys}
        for rnd in sorted({k[0] for k in res}):
            a, b = res.get((rnd, client)), res.get((rnd, "reference"))
            if not a or not b:
                continue
            parts = []
            for k, lab in keys:
                x = a[k] / b[k] if a[k] is not None and b[k] else None
                if x is not None:
                    ratios[k].append(x)
                parts.append(f"{lab} {fmt(x, 3)}")
            print(f"  round {rnd}: " + ", ".join(parts))
        if any(ratios.values()):
            print("  median over rounds: " + ", ".join(f"{lab} {fmt(med(ratios[k]), 3)}" for k, lab in keys))
        print()
    print("median over rounds of each client's p50 (ms; TTFT difference client - reference):")
    for client in clients:
        rs = [r for (rnd, c), r in res.items() if c == client]
        if rs:
            print(f"  {client:9s}: TTFT {fmt(med([r['ttft'] for r in rs]), 2)}, E2E {fmt(med([r['e2e'] for r in rs]), 2)}, "
                  f"decode {fmt(med([r['decode'] for r in rs]), 1)} tok/s, srv prompt_ms {fmt(med([r['srv_prompt_ms'] for r in rs]), 2)}, "
                  f"srv pred {fmt(med([r['srv_pred_tok_s'] for r in rs]), 1)} tok/s, CPU {fmt(med([r['cpu'] for r in rs]), 2)} s")
    for client in clients:
        if client == "reference":
            continue
        diffs = [res[(rnd, client)]["ttft"] - res[(rnd, "reference")]["ttft"]
                 for rnd in sorted({k[0] for k in res})
                 if (rnd, client) in res and (rnd, "reference") in res
                 and res[(rnd, client)]["ttft"] is not None and res[(rnd, "reference")]["ttft"] is not None]
        if diffs:
            print(f"  {client} TTFT p50 difference per round: {', '.join(fmt(x, 2) for x in diffs)} ms "
                  f"(median {fmt(med(diffs), 2)})")
    return 0


def main(a):
    if len(a) >= 4 and a[0] == "warmup":
        return warmup(a[1], int(a[2]), int(a[3]))
    if len(a) == 6 and a[0] == "oracle":
        return oracle(*a[1:])
    if len(a) == 2 and a[0] == "oracle-table":
        return oracle_table(a[1])
    if len(a) == 2 and a[0] == "llama":
        return llama(a[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
