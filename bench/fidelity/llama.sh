#!/usr/bin/env bash
# capstream against the reference runner on a real engine: llama.cpp's llama-server (random-weight 20m llama model,
# `-np 4 -t 2 -c 8192`: four slots with real continuous batching, prefix cache on). For ROUNDS rounds, alternating
# which client goes first, each client runs the same workload on a FRESH server (started and stopped by PID, so
# both begin with an empty prefix cache): 20 requests, concurrency 4, --ctx-tokens 1024 (default 8000-token shared
# prefix: every prompt is the same 3,072-character truncation plus its own tail), --max-tokens 64,
# --max-model-len 4096, --thinking-mode disabled, model random-llama-20m.
# Printed per client and round: TTFT / E2E / decode tok/s p50 from the client's report; the server's own truth from
# its log (`prompt eval time` = prompt_ms, `eval time` = predicted tok/s, one pair per task); for the reference
# runner also the usage chunk's `timings` (captured per row); the client process's CPU seconds; then each client's
# ratios to the reference runner's per round and their median.
#
#   bench/fidelity/llama.sh                          # 3 rounds
#   ROUNDS=1 JAR=/tmp/before/cli/target/capstream.jar bench/fidelity/llama.sh
#   CLIENTS="capstream before=/tmp/before/cli/target/capstream.jar reference" bench/fidelity/llama.sh   # jars side by side
#
# Env: ROUNDS (3); CLIENTS (default "capstream reference": each word is "reference", "capstream" (the jar JAR) or
#      NAME=JARPATH, another capstream jar under its own name; each round runs them all, rotating which goes first);
#      JAR (default <repo>/cli/target/capstream.jar); JAVA (java); CAPSTREAM_JAVA_OPTS (-XX:+UseZGC -XX:TieredStopAtLevel=1, as ./capstream run);
#      PORT (18491); CLIENT_CPU (unset = not pinned; e.g. 0 pins both clients to core 0); RUN_TIMEOUT (600 s per
#      client process); WAIT_BUILD (3600 s to wait for the llama-server binary: this script never builds it);
#      PEERS_DIR (~/.cache/capstream-peers); OUT (results dir, default a new /tmp/capstream-fidelity-llama.*).
# Everything listens on 127.0.0.1; every process this script starts is stopped by PID (trap).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
ROUNDS=${ROUNDS:-3}
JAR=${JAR:-$repo/cli/target/capstream.jar}
CLIENTS=${CLIENTS:-capstream reference}
JAVA=${JAVA:-java}
CAPSTREAM_JAVA_OPTS=${CAPSTREAM_JAVA_OPTS--XX:+UseZGC -XX:TieredStopAtLevel=1}
PORT=${PORT:-18491}
CLIENT_CPU=${CLIENT_CPU:-}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
WAIT_BUILD=${WAIT_BUILD:-3600}
PEERS_DIR=${PEERS_DIR:-$HOME/.cache/capstream-peers}
PEERS_SH=${PEERS_SH:-/work/shared/peers/llama-server.sh}
export PEERS_DIR
bin=$PEERS_DIR/llama.cpp/build/bin/llama-server
model=$PEERS_DIR/rand-llama-20m.gguf
url="http://127.0.0.1:$PORT/v1"
declare -A jars=()
names=()
for w in $CLIENTS; do
  case $w in
    reference) ;;
    capstream) jars[capstream]=$JAR ;;
    *=*) jars[${w%%=*}]=${w#*=}; w=${w%%=*} ;;
    *) echo "CLIENTS: '$w' is not reference, capstream or NAME=JAR" >&2; exit 2 ;;
  esac
  [[ $w =~ ^[A-Za-z0-9_]+$ ]] || { echo "CLIENTS: name '$w' must be letters, digits or _" >&2; exit 2; }
  names+=("$w")
done
for n in "${!jars[@]}"; do
  [[ -f ${jars[$n]} ]] || { echo "no jar at ${jars[$n]} for client $n (build it, or set JAR=...)" >&2; exit 2; }
done
OUT=${OUT:-$(mktemp -d /tmp/capstream-fidelity-llama.XXXXXX)}
mkdir -p "$OUT"

srv_pid= client_pid=
stop_pid() {  # stop one process we started, by PID ($2 = seconds before SIGKILL); it may not be our child
  local pid=$1
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 $(( ${2:-10} * 10 ))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
}
cleanup() { stop_pid "$client_pid" 20; stop_pid "$srv_pid"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# The binary is built by someone else (llama-server.sh build, ~15 min): wait for it, never build it here.
if [[ ! -x $bin ]]; then
  echo "waiting up to $WAIT_BUILD s for $bin ..."
  for _ in $(seq 1 "$WAIT_BUILD"); do [[ -x $bin ]] && break; sleep 1; done
  [[ -x $bin ]] || { echo "no llama-server binary at $bin after $WAIT_BUILD s" >&2; exit 1; }
fi
# The model file may be being written by another `llama-server.sh model 20m`: wait until it exists and its size
# is stable (if nobody writes it, `llama-server.sh start` generates it: numpy, a few seconds).
for _ in $(seq 1 600); do
  if [[ -f $model ]]; then
    s1=$(stat -c %s "$model"); sleep 3; s2=$(stat -c %s "$model")
    [[ $s1 == "$s2" ]] && ! pgrep -f make_random_gguf >/dev/null && break
  elif ! pgrep -f make_random_gguf >/dev/null; then
    break
  fi
  sleep 1
done

start_server() {
  (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && { echo "port $PORT is already in use" >&2; exit 1; }
  srv_pid=$("$PEERS_SH" start "$PORT" 20m -np 4 -t 2 -c 8192)
  [[ $srv_pid =~ ^[0-9]+$ ]] || { echo "llama-server did not start: $srv_pid" >&2; srv_pid=; exit 1; }
}

run_client() {  # $1 = round, $2 = client
  local r=$1 c=$2 base=$OUT/r$1-$2 rc=0
  local common=(--base-url "$url" --model random-llama-20m --requests 20 --concurrency 4 --ctx-tokens 1024
                --max-tokens 64 --max-model-len 4096 --thinking-mode disabled --output "$base.json")
  local cmd
  if [[ $c != reference ]]; then
    # shellcheck disable=SC2086
    cmd=("$JAVA" $CAPSTREAM_JAVA_OPTS -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -jar "${jars[$c]}" run "${common[@]}")
  else
    cmd=(python3 "$here/reference_runner.py" "${common[@]}")
  fi
  local pin=()
  [[ -n $CLIENT_CPU ]] && pin=(taskset -c "$CLIENT_CPU")
  rm -f "$base.json" "$base.time"
  start_server
  echo "== round $r, $c (fresh llama-server pid $srv_pid on 127.0.0.1:$PORT)"
  # timeout leads the process group: stopping its PID stops /usr/bin/time and the client under it
  "${pin[@]}" timeout -k 10 "$RUN_TIMEOUT" /usr/bin/time -f '%e %U %S' -o "$base.time" "${cmd[@]}" \
    >"$base.out" 2>&1 </dev/null &
  client_pid=$!
  wait "$client_pid" || rc=$?
  client_pid=
  stop_pid "$srv_pid"; srv_pid=
  cp "$PEERS_DIR/server-$PORT.log" "$base.server.log" 2>/dev/null || true
  (( rc == 0 )) || { echo "  client exit code $rc ($base.out):"; tail -n 5 "$base.out" | sed 's/^/  | /'; }
  python3 - "$base.json" "$base.time" <<'EOF'
import json, sys
try:
    a = json.load(open(sys.argv[1])); m = a["metrics"]
    t = open(sys.argv[2]).read().split()[-3:]
    print(f"  {a['completed']}/{a['requests']} ok, TTFT p50 {m['ttft_p50_ms']:.2f} ms, E2E p50 {m['e2e_p50_ms']:.2f} ms, "
          f"decode p50 {m['decode_tok_s_p50']:.1f} tok/s; process wall {float(t[0]):.2f} s, CPU {float(t[1]) + float(t[2]):.2f} s")
except Exception as e:
    print(f"  (no summary: {e})")
EOF
}

echo "clients: ${names[*]}$(for n in "${!jars[@]}"; do printf ' %s=%s' "$n" "${jars[$n]}"; done) rounds=$ROUNDS out=$OUT"
echo "server: $bin (20m, -np 4 -t 2 -c 8192)$([[ -n $CLIENT_CPU ]] && echo "; clients on core $CLIENT_CPU")"
n=${#names[@]}
for r in $(seq 1 "$ROUNDS"); do
  # round r starts with client (r-1) mod n and goes on in the list's order, so each goes first equally often
  for k in $(seq 0 $(( n - 1 ))); do run_client "$r" "${names[$(( (r - 1 + k) % n ))]}"; done
done
echo
python3 "$here/compare.py" llama "$OUT"
echo "files: $OUT"
