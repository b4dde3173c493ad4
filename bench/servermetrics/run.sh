#!/usr/bin/env bash
# Does scraping the engine's /metrics change what capstream measures? Side by side on a real engine, llama.cpp's
# llama-server (random-weight 20m llama model, --metrics -np 4 -t 2 -c 8192): for ROUNDS rounds, alternating which
# goes first, the same workload with --server-metrics off and with --server-metrics <server>/metrics, each on a
# FRESH server (started and stopped by PID, so both begin with an empty prefix cache): 40 requests, concurrency 4,
# --ctx-tokens 1024, --max-tokens 64, --thinking-mode disabled.
# Printed per variant and round: client TTFT p50/p95 and E2E p50 from the report, the server's own prompt_ms p50
# (its log's `prompt eval time`, a server-side truth), client TTFT p50 minus it, the client's event-loop delay p99
# and CPU ms per 1,000 chunks (capstream.client), and the scrapes taken.
#
#   bench/servermetrics/run.sh            # 3 rounds
# Env: ROUNDS (3); JAR (<repo>/cli/target/capstream.jar); PORT (18493); PEERS_DIR (~/.cache/capstream-peers);
#      OUT (results dir). Everything listens on 127.0.0.1; every process started here is stopped by PID.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
ROUNDS=${ROUNDS:-3}
JAR=${JAR:-$repo/cli/target/capstream.jar}
PORT=${PORT:-18493}
PEERS_DIR=${PEERS_DIR:-$HOME/.cache/capstream-peers}
OUT=${OUT:-$(mktemp -d /tmp/capstream-servermetrics.XXXXXX)}
bin=$PEERS_DIR/llama.cpp/build/bin/llama-server
model=$PEERS_DIR/rand-llama-20m.gguf
[[ -x $bin && -f $model ]] || { echo "no llama-server build or model under $PEERS_DIR (run the peers llama-server.sh build, then its model 20m)" >&2; exit 2; }
[[ -f $JAR ]] || { echo "no jar at $JAR" >&2; exit 2; }
srv_pid=
stop_srv() {
  [[ -n $srv_pid ]] && kill -0 "$srv_pid" 2>/dev/null || return 0
  kill "$srv_pid"; for _ in $(seq 1 100); do kill -0 "$srv_pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$srv_pid" 2>/dev/null && kill -9 "$srv_pid" || true
  wait "$srv_pid" 2>/dev/null || true; srv_pid=
}
trap stop_srv EXIT
trap 'exit 130' INT TERM

one() {  # $1 variant (off|on) $2 round
  local log=$OUT/server-$1-$2.log
  "$bin" -m "$model" --alias random-llama-20m --host 127.0.0.1 --port "$PORT" -c 8192 -t 2 -np 4 --metrics --no-webui \
    >"$log" 2>&1 &
  srv_pid=$!
  for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break; sleep 0.5; done
  local sm=off; [[ $1 == on ]] && sm="http://127.0.0.1:$PORT/metrics"
  java -XX:+UseZGC -XX:TieredStopAtLevel=1 -jar "$JAR" run --base-url "http://127.0.0.1:$PORT/v1" \
    --model random-llama-20m --requests 40 --concurrency 4 --ctx-tokens 1024 --max-tokens 64 --max-model-len 4096 \
    --thinking-mode disabled --server-metrics "$sm" --output "$OUT/report-$1-$2.json" >"$OUT/client-$1-$2.out" 2>&1
  stop_srv
}
for r in $(seq 1 "$ROUNDS"); do
  if (( r % 2 )); then one off "$r"; one on "$r"; else one on "$r"; one off "$r"; fi
done
python3 - "$OUT" "$ROUNDS" <<'PY'
import json, math, re, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def pct(v, q):
    v = sorted(x for x in v if x is not None)
    return v[max(0, math.ceil(q * len(v) / 100) - 1)] if v else None
prompt_re = re.compile(r"prompt eval time =\s*([\d.]+) ms")
print(f"{'variant':8}{'round':>6}{'TTFT p50':>10}{'TTFT p95':>10}{'E2E p50':>10}{'srv prompt p50':>16}{'TTFT-srv':>10}"
      f"{'loop p99':>10}{'cpu/1k ch':>11}{'scrapes':>9}")
for r in range(1, rounds + 1):
    for v in ("off", "on"):
        a = json.load(open(f"{out}/report-{v}-{r}.json"))
        rows = a["request_timings"]
        ttft = [x["ttft_ms"] for x in rows]
        srv = [float(m) for m in prompt_re.findall(open(f"{out}/server-{v}-{r}.log").read())]
        c = a["capstream"].get("client") or {}
        sm = a["capstream"].get("server_metrics") or {}
        t50, s50 = pct(ttft, 50), pct(srv, 50)
        print(f"{v:8}{r:>6}{t50:>10.1f}{pct(ttft, 95):>10.1f}{pct([x['e2e_ms'] for x in rows], 50):>10.1f}"
              f"{s50:>16.1f}{t50 - s50:>10.1f}{c.get('delay_p99_ms') or 0:>10.2f}"
              f"{c.get('cpu_ms_per_1000_chunks') or 0:>11.1f}{sm.get('scrapes', 0):>9}")
PY
echo "results in $OUT"
