#!/usr/bin/env python3
"""Stdlib-only re-implementation of the reference client's measurement (anvil-serving
`eval benchmark capacity`, protocol capacity-v3), used as the baseline of the fidelity benchmark.

It follows /work/shared/spec/capacity-protocol.md:
  §2.2  POST <base>/chat/completions through urllib (so the reference's headers: Connection: close,
        Accept-Encoding: identity, Content-Length, User-Agent Python-urllib/3.x), one new TCP connection per
        request (no keep-alive), body members in the reference's order;
  §3.3  prompts: shared prefix fill(floor(3*shared_prefix_tokens), 0) and per-request tail
        "\\n# request i: summarize the above in one line.", floor(3*ctx) characters in all;
  §4    the body read line by line, `data:` lines only, `[DONE]` stops, bad JSON skipped, last truthy usage wins;
        t0 = perf_counter() just before the connection is opened (body already serialised); TTFO/TTFT at the
        first non-empty reasoning / content delta, after its line was read and parsed; e2e after the stream
        was consumed and the connection closed;
  §5    a pool of exactly --concurrency threads fed request indices 0..n-1 in order from one FIFO queue
        (closed loop, no think time, no warm-up); wall = monotonic time around the whole pool;
  §7/§8 per-request rows and nearest-rank p50/p95 metrics (plus p99 of TTFT/E2E, an addition).

Differences from the reference (all outside the measured path): fixed --ctx-tokens only (no sampled
distribution), no /models probe (--max-model-len 0 means "unknown": no cap), proxies from the environment are
ignored, concurrency above the reference's 256 is allowed (with a warning), and the output carries a few extra
keys: `reference_runner` (process CPU, threads, achieved concurrency) and per row `server_timings` (llama-server's
`timings` object from the usage chunk, verbatim, when the server sends one).

usage: reference_runner.py --base-url URL --model M [--requests N] [--concurrency C] --ctx-tokens T
                           [--shared-prefix-tokens 8000] [--max-tokens 64] [--thinking-mode default|enabled|disabled]
                           [--max-model-len 0] [--margin 1024] [--timeout 900] [--api-key-env VAR] --output FILE
"""
import argparse
import datetime
import json
import math
import os
import queue
import resource
import sys
import threading
import time
import urllib.error
import urllib.request

CHARS_PER_TOKEN = 3.0
LINE = "def helper_{a}():\n    return compute({b})  # routine specialist context\n"
TIMING_METHODOLOGY = {  # verbatim from shared/corpus/seed-example.json (spec §9.2)
    "clock": "client time.perf_counter",
    "decode": "usage completion tokens after the first token divided by client-observed generation time; "
              "completion tokens may include reasoning tokens",
    "effective_prefill": "usage.prompt_tokens divided by client-observed time to first output; includes queueing, "
                         "scheduling, prefill, and first-token work",
    "generation": "client-observed E2E minus time to first output",
    "mean_inter_token_latency": "client-observed generation time divided by completion tokens after the first "
                                "token; not a raw per-token timestamp trace",
    "time_to_first_output": "request start through the first non-empty streamed reasoning or content delta",
    "ttft": "request start through the first non-empty streamed content delta",
}


# ---------------------------------------------------------------- prompts (§3.3)
def fill(budget, offset):
    parts, total, k = [], 0, 0
    while total < budget:
        s = LINE.format(a=offset + k, b=k)
        parts.append(s)
        total += len(s)
        k += 1
    return "".join(parts)


def shared_prefix(shared_prefix_tokens):
    if shared_prefix_tokens <= 0:
        return ""
    cb = math.floor(shared_prefix_tokens * CHARS_PER_TOKEN)
    return fill(cb, 0)[:cb]


def tail(i):
    return f"\n# request {i}: summarize the above in one line."


def build_prompt(i, planned, cap, prefix):
    budget = planned if cap is None else min(planned, cap)
    total = math.floor(budget * CHARS_PER_TOKEN)
    t = tail(i)
    if total <= len(t):
        raise ValueError("context target is too small for the benchmark prompt envelope")
    unique = total - len(prefix) - len(t) - 1
    if unique <= 0:
        return prefix[:max(0, total - len(t))] + t
    return prefix + "\n" + fill(unique, i)[:unique] + t


# ---------------------------------------------------------------- one request (§2.2, §4)
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # everything here is 127.0.0.1


class Result:
    __slots__ = ("index", "planned", "ttfo", "ttft", "e2e", "usage", "timings", "content_chunks",
                 "reasoning_chunks", "error_type", "error_message")


def run_one(cfg, i, prefix, inflight):
    r = Result()
    r.index, r.planned = i, cfg.planned
    r.ttfo = r.ttft = r.e2e = None
    r.usage = r.timings = None
    r.content_chunks = r.reasoning_chunks = 0
    r.error_type = r.error_message = None
    try:
        prompt = build_prompt(i, cfg.planned, cfg.cap, prefix)
        body = {"model": cfg.model, "messages": [{"role": "user", "content": prompt}],
                "max_tokens": cfg.max_tokens, "temperature": 0.0, "stream": True,
                "stream_options": {"include_usage": True}}
        if cfg.thinking_mode in ("enabled", "disabled"):
            body["chat_template_kwargs"] = {"enable_thinking": cfg.thinking_mode == "enabled"}
        headers = {"Content-Type": "application/json"}
        if cfg.api_key:
            headers["Authorization"] = "Bearer " + cfg.api_key
        req = urllib.request.Request(cfg.url, data=json.dumps(body).encode("utf-8"), headers=headers, method="POST")
        usage = timings = None
        ttfo = ttft = None
        cc = rc = 0
        with inflight:
            inflight.now += 1
            inflight.peak = max(inflight.peak, inflight.now)
        try:
            perf = time.perf_counter
            t0 = perf()
            with _OPENER.open(req, timeout=cfg.timeout) as resp:
                for raw in resp:
                    line = raw.decode("utf-8", "replace").strip()
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    try:
                        chunk = json.loads(data)
                    except ValueError:
                        continue
                    if chunk.get("usage"):
                        usage = chunk["usage"]
                    if chunk.get("timings"):
                        timings = chunk["timings"]
                    for choice in chunk.get("choices", []):
                        delta = choice.get("delta") or {}
                        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
                        if isinstance(reasoning, str) and reasoning:
                            if ttfo is None:
                                ttfo = perf() - t0
                            rc += 1
                        content = delta.get("content")
                        if isinstance(content, str) and content:
                            if ttfo is None:
                                ttfo = perf() - t0
                            if ttft is None:
                                ttft = perf() - t0
                            cc += 1
            e2e = perf() - t0  # after the body was consumed and the connection closed
        finally:
            with inflight:
                inflight.now -= 1
        r.usage, r.timings, r.content_chunks, r.reasoning_chunks = usage, timings, cc, rc
        if ttft is None:
            raise ValueError("stream completed without visible content")
        r.ttfo, r.ttft, r.e2e = ttfo, ttft, e2e
    except Exception as e:  # every failure becomes a failures[] entry (§6)
        msg = str(e) or "<empty exception message>"
        r.error_type, r.error_message = type(e).__name__, msg
    return r


# ---------------------------------------------------------------- rows and metrics (§7, §8)
def _int(v):
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None


def make_row(r):
    ttfo = r.ttfo if r.ttfo is not None else r.ttft
    if not (math.isfinite(r.ttft) and math.isfinite(r.e2e) and r.ttft >= 0 and r.e2e >= r.ttft and 0 <= ttfo <= r.ttft):
        return None
    usage = r.usage or {}
    prompt_tokens = _int(usage.get("prompt_tokens"))
    completion = _int(usage.get("completion_tokens"))
    source = "usage" if completion is not None else "content_chunks"
    gen = r.e2e - ttfo
    decode = itl = None
    if completion is not None and completion - 1 > 0 and gen > 0:
        decode = (completion - 1) / gen
        itl = gen * 1000.0 / (completion - 1)
    row = {
        "request_index": r.index,
        "planned_context_tokens": r.planned,
        "prompt_tokens": prompt_tokens,
        "output_tokens": completion,
        "output_token_source": source,
        "time_to_first_output_ms": ttfo * 1000.0,
        "ttft_ms": r.ttft * 1000.0,
        "generation_ms": gen * 1000.0,
        "visible_generation_ms": (r.e2e - r.ttft) * 1000.0,
        "e2e_ms": r.e2e * 1000.0,
        "effective_prefill_tok_s": (prompt_tokens / ttfo) if prompt_tokens is not None and ttfo > 0 else None,
        "decode_tok_s": decode,
        "mean_inter_token_latency_ms": itl,
        "reasoning_chunks": r.reasoning_chunks,
        "content_chunks": r.content_chunks,
    }
    if r.timings is not None:
        row["server_timings"] = r.timings
    return row


def pct(values, q):
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    return v[max(0, math.ceil(q * len(v) / 100) - 1)]


def metrics(rows, ok, wall):
    m = {}
    cols = [("time_to_first_output", "time_to_first_output_ms", "_ms"), ("ttft", "ttft_ms", "_ms"),
            ("generation", "generation_ms", "_ms"), ("e2e", "e2e_ms", "_ms"),
            ("effective_prefill_tok_s", "effective_prefill_tok_s", ""), ("decode_tok_s", "decode_tok_s", ""),
            ("mean_inter_token_latency", "mean_inter_token_latency_ms", "_ms"), ("prompt_tokens", "prompt_tokens", "")]
    for name, col, suffix in cols:
        vals = [row[col] for row in rows]
        if col == "prompt_tokens":
            vals = [float(x) if x is not None else None for x in vals]
        for q in (50, 95):
            m[f"{name}_p{q}{suffix}"] = pct(vals, q)
    # additions (not in the reference): p99 of the two latency columns
    m["ttft_p99_ms"] = pct([row["ttft_ms"] for row in rows], 99)
    m["e2e_p99_ms"] = pct([row["e2e_ms"] for row in rows], 99)
    m["ttft_samples"] = len(rows)
    pts = [row["prompt_tokens"] for row in rows if row["prompt_tokens"] is not None]
    m["prompt_tokens"] = sum(pts) if pts else None
    m["prompt_token_samples"] = len(pts)
    sources = {}
    for r in ok:
        s = "usage" if _int((r.usage or {}).get("completion_tokens")) is not None else "content_chunks"
        sources[s] = sources.get(s, 0) + 1
    all_usage = all(_int((r.usage or {}).get("completion_tokens")) is not None for r in ok)
    m["output_tokens"] = sum(_int(r.usage["completion_tokens"]) for r in ok) if all_usage else None
    m["content_chunks"] = sum(r.content_chunks for r in ok)
    m["reasoning_chunks"] = sum(r.reasoning_chunks for r in ok)
    m["throughput_tok_s"] = (m["output_tokens"] / wall) if m["output_tokens"] is not None and wall > 0 else None
    m["content_chunks_s"] = (m["content_chunks"] / wall) if m["output_tokens"] is None and wall > 0 else None
    m["output_token_sources"] = sources
    fr = []
    for r in ok:
        u = r.usage
        if u and (u.get("prompt_tokens_details") or {}).get("cached_tokens") is not None and u.get("prompt_tokens"):
            fr.append(u["prompt_tokens_details"]["cached_tokens"] / u["prompt_tokens"])
    m["prefix_cache_hit_avg"] = (sum(fr) / len(fr)) if fr else None
    return m


# ---------------------------------------------------------------- main (§5)
class InFlight:
    def __init__(self):
        self._lock = threading.Lock()
        self.now = self.peak = 0

    def __enter__(self):
        self._lock.acquire()

    def __exit__(self, *a):
        self._lock.release()


def utc(ts):
    return datetime.datetime.fromtimestamp(int(ts), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base-url", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--requests", type=int, default=60)
    p.add_argument("--concurrency", type=int, default=20)
    p.add_argument("--ctx-tokens", type=int, required=True, help="fixed planned context per request (32..1048576)")
    p.add_argument("--shared-prefix-tokens", type=int, default=8000)
    p.add_argument("--max-tokens", type=int, default=64)
    p.add_argument("--max-model-len", type=int, default=0, help="0 = unknown: no prompt cap (no /models probe)")
    p.add_argument("--margin", type=int, default=1024)
    p.add_argument("--thinking-mode", choices=["default", "enabled", "disabled"], default="default")
    p.add_argument("--timeout", type=float, default=900.0, help="socket timeout of connect, headers and each read")
    p.add_argument("--api-key-env")
    p.add_argument("--output", required=True)
    p.add_argument("--quiet", action="store_true")
    a = p.parse_args(argv)

    errors = []
    if not 1 <= a.requests <= 100000: errors.append("--requests must be in 1..100000")
    if not 1 <= a.concurrency <= 100000: errors.append("--concurrency must be in 1..100000")
    if not 32 <= a.ctx_tokens <= 1048576: errors.append("--ctx-tokens must be in 32..1048576")
    if not 0 <= a.shared_prefix_tokens <= 262144: errors.append("--shared-prefix-tokens must be in 0..262144")
    if not 1 <= a.max_tokens <= 65536: errors.append("--max-tokens must be in 1..65536")
    if not (math.isfinite(a.timeout) and 0 < a.timeout <= 3600): errors.append("--timeout must be in (0, 3600]")
    cap = None
    if a.max_model_len:
        cap = a.max_model_len - a.max_tokens - a.margin
        if cap <= 0: errors.append("--max-model-len must exceed --max-tokens + --margin")
    if a.requests * a.ctx_tokens > 67108864: errors.append("aggregate prompt guard: requests x ctx-tokens > 67,108,864")
    api_key = None
    if a.api_key_env:
        api_key = (os.environ.get(a.api_key_env) or "").strip()
        if not api_key: errors.append(f"--api-key-env: variable {a.api_key_env} is unset or empty")
    out_dir = os.path.dirname(os.path.abspath(a.output))
    if not os.path.isdir(out_dir) or not os.access(out_dir, os.W_OK) or os.path.isdir(a.output) or os.path.islink(a.output):
        errors.append(f"--output {a.output}: parent must be a writable directory and the path not a dir/symlink")
    if errors:
        for e in errors: print("reference_runner: " + e, file=sys.stderr)
        return 2
    if a.concurrency > 256:
        print(f"reference_runner: note: the reference caps --concurrency at 256; running {a.concurrency} threads",
              file=sys.stderr)

    class Cfg: pass
    cfg = Cfg()
    cfg.url = a.base_url.rstrip("/") + "/chat/completions"
    cfg.model, cfg.max_tokens, cfg.thinking_mode, cfg.timeout, cfg.api_key = (
        a.model, a.max_tokens, a.thinking_mode, a.timeout, api_key)
    cfg.cap = cap
    cfg.planned = a.ctx_tokens if cap is None else min(a.ctx_tokens, cap)
    n, conc = a.requests, a.concurrency
    prefix = shared_prefix(a.shared_prefix_tokens)
    if conc > 512:
        threading.stack_size(1 << 20)  # thousands of threads: 1 MiB stacks instead of 8 MiB

    results = [None] * n
    work = queue.Queue()
    for i in range(n):
        work.put(i)
    inflight = InFlight()

    def worker():
        while True:
            try:
                i = work.get_nowait()
            except queue.Empty:
                return
            results[i] = run_one(cfg, i, prefix, inflight)

    started_wall = time.time()
    T0 = time.monotonic()
    threads = [threading.Thread(target=worker, name=f"w{k}", daemon=True) for k in range(conc)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - T0
    finished_wall = time.time()

    ok = [r for r in results if r.error_type is None]
    bad = [r for r in results if r.error_type is not None]
    rows = [row for row in (make_row(r) for r in ok) if row is not None]
    m = metrics(rows, ok, wall)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    art = {
        "schema": "anvil-serving.benchmark/v1",
        "measurement_protocol": "capacity-v4-reasoning" if m["reasoning_chunks"] > 0 else "capacity-v3",
        "run_id": "benchmark-" + datetime.datetime.fromtimestamp(int(started_wall), datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"),
        "started_at": utc(started_wall), "finished_at": utc(finished_wall), "wall_clock_ms": wall * 1000.0,
        "base_url": a.base_url, "model": a.model, "engine": None, "gpu": None, "tier": None, "manifest": None,
        "source_recipe": None, "requests": n, "completed": len(ok), "failed": len(bad),
        "failures": [{"request_index": r.index, "error_type": r.error_type,
                      "error_message": r.error_message[:2048],
                      "error_message_truncated": len(r.error_message) > 2048} for r in bad],
        "concurrency": conc, "context_tokens": a.ctx_tokens, "context_seed": 0,
        "context_distribution": {str(cfg.planned): n}, "max_context_tokens": a.max_model_len or None,
        "max_tokens": a.max_tokens,
        "serve_flags": {"shared_prefix_burst": False, "no_thinking": False, "thinking_mode": a.thinking_mode,
                        "reasoning_effort": None},
        "timing_methodology": TIMING_METHODOLOGY,
        "request_timings": rows,
        "metrics": m,
        "reference_runner": {
            "process_cpu_s": ru.ru_utime + ru.ru_stime, "user_cpu_s": ru.ru_utime, "sys_cpu_s": ru.ru_stime,
            "max_rss_kib": ru.ru_maxrss, "python": sys.version.split()[0],
            "shared_prefix_tokens": a.shared_prefix_tokens, "margin_tokens": a.margin, "timeout_s": a.timeout,
            "client": {"threads": conc, "max_in_flight": inflight.peak},
        },
    }
    tmp = a.output + ".tmp"
    with open(tmp, "w", encoding="ascii") as f:
        json.dump(art, f, indent=2, sort_keys=True, ensure_ascii=True, allow_nan=False)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, a.output)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    if not a.quiet:
        f = lambda v: "null" if v is None else f"{v:.1f}"
        print(f"reference_runner: {len(ok)}/{n} completed, failed {len(bad)}, concurrency {conc} "
              f"(max in flight {inflight.peak}), wall {wall * 1000:.1f} ms; TTFT p50 {f(m['ttft_p50_ms'])} "
              f"p95 {f(m['ttft_p95_ms'])} ms, E2E p50 {f(m['e2e_p50_ms'])} ms, decode p50 {f(m['decode_tok_s_p50'])} tok/s; "
              f"report {a.output}")
        for r in bad[:3]:
            print(f"reference_runner: request {r.index} failed: {r.error_type}: {r.error_message[:200]}", file=sys.stderr)
    print(f"reference_runner: process CPU {ru.ru_utime + ru.ru_stime:.3f} s "
          f"(user {ru.ru_utime:.3f} s, sys {ru.ru_stime:.3f} s), max RSS {ru.ru_maxrss / 1024:.1f} MiB")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
