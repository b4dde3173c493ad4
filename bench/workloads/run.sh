#!/usr/bin/env bash
# Issue 29's workloads, measured: multi-turn conversations and the three streamed APIs on a real engine (llama.cpp's
# llama-server, random-weight 20m model, `--metrics -np 2 -c 8192`: two slots of 4096 tokens, prefix cache on), and an
# agent loop with tool calls on the built-in sim.
#   1. for each API in ENDPOINTS (chat responses messages), on a FRESH llama-server (so each starts with an empty
#      prefix cache): `run --endpoint API --turns 3 --requests REQUESTS --concurrency 2 --ctx-tokens 256
#      --shared-prefix-tokens 0 --max-tokens 16 --max-model-len 4096 --thinking-mode disabled`, scraping its /metrics;
#   2. the built-in sim (the default target): `run --tools tools.json --sim-tool-call-rate 1 --turns 2
#      --tool-result-tokens 64 --tool-latency 50ms --requests 20`.
# Printed side by side: per API the client's TTFT p50/p95, TPOT (mean inter-token latency) p50 and decode tok/s p50,
# and llama-server's own per-request prompt_ms p50 and decode tok/s p50 (its log's `prompt eval time` / `eval time`
# lines, one pair per request) and its /metrics counters' increases (prompt + cached tokens, output tokens); then per
# turn and API the prompt tokens p50 and cached prompt tokens p50 (capstream.sessions.by_turn); then the agent loop's
# conversations, tool calls and its turns.
#
#   bench/workloads/run.sh
#   ENDPOINTS="chat responses" REQUESTS=24 bench/workloads/run.sh
#
# Env: ENDPOINTS (chat responses messages); REQUESTS (12, the llama-server runs'); TURNS (3; 1 = single-turn requests);
#      SIM_REQUESTS (20; 0 skips the agent loop); JAR
#      (<repo>/cli/target/capstream.jar); JAVA (java); PORT (18495); RUN_TIMEOUT (600 s per client process);
#      PEERS_DIR (~/.cache/capstream-peers); PEERS_SH (/work/shared/peers/llama-server.sh, which starts the server and
#      writes the model when missing; it never builds here: run its `build` first); OUT (results dir, default a new
#      /tmp/capstream-workloads.*). Everything listens on 127.0.0.1; every process started here is stopped by PID.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
ENDPOINTS=${ENDPOINTS:-chat responses messages}
REQUESTS=${REQUESTS:-12}
TURNS=${TURNS:-3}
SIM_REQUESTS=${SIM_REQUESTS:-20}
JAR=${JAR:-$repo/cli/target/capstream.jar}
JAVA=${JAVA:-java}
PORT=${PORT:-18495}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
PEERS_DIR=${PEERS_DIR:-$HOME/.cache/capstream-peers}
PEERS_SH=${PEERS_SH:-/work/shared/peers/llama-server.sh}
OUT=${OUT:-$(mktemp -d /tmp/capstream-workloads.XXXXXX)}
export PEERS_DIR
bin=$PEERS_DIR/llama.cpp/build/bin/llama-server
[[ -x $bin ]] || { echo "no llama-server at $bin (build it first: $PEERS_SH build)" >&2; exit 2; }
[[ -f $JAR ]] || { echo "no jar at $JAR (build it: mvn -B -q -DskipTests package -pl cli -am)" >&2; exit 2; }
mkdir -p "$OUT"
srv_pid= client_pid=
stop_pid() {  # stop one process we started, by PID
  local pid=$1
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() { stop_pid "$client_pid"; stop_pid "$srv_pid"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

client() {  # $1 name, then the run's arguments: the client process under timeout, its exit code kept
  local name=$1 rc=0; shift
  timeout -k 10 "$RUN_TIMEOUT" "$JAVA" -XX:+UseZGC -XX:TieredStopAtLevel=1 -jar "$JAR" run "$@" \
    --output "$OUT/$name.json" --csv "$OUT/$name.csv" >"$OUT/$name.out" 2>&1 </dev/null &
  client_pid=$!
  wait "$client_pid" || rc=$?
  client_pid=
  (( rc == 0 )) || { echo "  $name: exit code $rc ($OUT/$name.out):"; tail -n 5 "$OUT/$name.out" | sed 's/^/  | /'; }
}

turns=(--turns "$TURNS"); [[ $TURNS == 1 ]] && turns=()   # --turns 1: the single-turn run (also on a jar without --turns)
check=("${turns[@]}" --concurrency 2 --ctx-tokens 256 --shared-prefix-tokens 0 --max-tokens 16 --max-model-len 4096
       --thinking-mode disabled)
for ep in $ENDPOINTS; do
  (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && { echo "port $PORT is already in use" >&2; exit 1; }
  srv_pid=$("$PEERS_SH" start "$PORT" 20m --metrics -np 2 -c 8192)
  [[ $srv_pid =~ ^[0-9]+$ ]] || { echo "llama-server did not start: $srv_pid" >&2; srv_pid=; exit 1; }
  echo "== $ep: fresh llama-server pid $srv_pid on 127.0.0.1:$PORT, $REQUESTS requests"
  client "llama-$ep" --base-url "http://127.0.0.1:$PORT/v1" --model random-llama-20m --endpoint "$ep" \
    --requests "$REQUESTS" --server-metrics "http://127.0.0.1:$PORT/metrics" "${check[@]}"
  stop_pid "$srv_pid"; srv_pid=
  cp "$PEERS_DIR/server-$PORT.log" "$OUT/llama-$ep.server.log"
done
if (( SIM_REQUESTS > 0 )); then
echo "== agent loop on the built-in sim, $SIM_REQUESTS requests"
client sim-agent --tools "$here/tools.json" --sim-tool-call-rate 1 --turns 2 --tool-result-tokens 64 \
  --tool-latency 50ms --requests "$SIM_REQUESTS"
fi

python3 "$here/table.py" "$OUT" $ENDPOINTS
echo "results in $OUT"
