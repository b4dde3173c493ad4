#!/usr/bin/env bash
# Distributed runs (issue 14): one `capstream worker` against two, sending the same run to the deterministic oracle
# target (/work/shared/peers/oracle/Oracle.java: 64 one-token chunks, the first 100 ms after the body, then every
# 10 ms; it logs its own time to the first chunk per request index). Per worker count N: a fresh oracle pinned to
# core ORACLE_CPU and warmed up; N worker JVMs, all pinned to core WORKER_CPU (the same CPU budget for 1 and 2);
# `capstream up` (Kafka + registry) and the coordinator `run --workers N` at nice 10 on the oracle's core. Prints
# per N (after one discarded run at the same concurrency, so the workers are warm): requests and failures,
# achieved concurrency, client-added TTFT p50/p99/max (client TTFT minus the oracle's
# own, joined by request index), the workers' CPU during the run and per 1,000 chunks, and the clock-offset spread.
#
#   bench/distributed/run.sh                       # concurrency 256, 1024 requests, N = 1 2
#   CONC=64 REQ=256 WORKERS="1 2" bench/distributed/run.sh
# Env: JAR (<repo>/cli/target/capstream.jar), PORT (18491, the oracle), WORKER_CPU (0), ORACLE_CPU (1), WARMUP (3000
#      oracle warm-up requests), OUT (results dir). Kafka and the registry use the `up` defaults (9092, 8081): they
#      must be free. Every process is started here and stopped by PID; everything listens on 127.0.0.1 only.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
JAR=${JAR:-$repo/cli/target/capstream.jar}
CONC=${CONC:-256}
REQ=${REQ:-$((4 * CONC))}
WORKERS=${WORKERS:-"1 2"}
PORT=${PORT:-18491}
WORKER_CPU=${WORKER_CPU:-0}
ORACLE_CPU=${ORACLE_CPU:-1}
WARMUP=${WARMUP:-3000}
ORACLE_JAVA=${ORACLE_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
ORACLE_SRC=${ORACLE_SRC:-/work/shared/peers/oracle/Oracle.java}
CLIENT_ADDED=${CLIENT_ADDED:-/work/shared/peers/oracle/client_added.py}
OUT=${OUT:-$(mktemp -d /tmp/capstream-distributed.XXXXXX)}
[[ -f $JAR ]] || { echo "no jar at $JAR (build it: mvn -o -q package -DskipTests)" >&2; exit 2; }
mkdir -p "$OUT"
ulimit -n 65536 2>/dev/null || true
url="http://127.0.0.1:$PORT/v1"
kafka=(--bootstrap-servers 127.0.0.1:9092 --schema-registry-url http://127.0.0.1:8081/apis/ccompat/v7)
java_opts=(-XX:+UseZGC -XX:TieredStopAtLevel=1 -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream)

pids=()
stop_pid() {
  local pid=$1
  kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() { for p in "${pids[@]}"; do stop_pid "$p"; done; }
trap cleanup EXIT
trap 'exit 130' INT TERM
wait_for() {  # $1 file, $2 text, $3 seconds
  for _ in $(seq 1 $(( $3 * 10 ))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "timed out waiting for '$2' in $1" >&2; exit 1
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # utime + stime of one process, clock ticks

echo "oracle core $ORACLE_CPU, workers core $WORKER_CPU, concurrency $CONC, $REQ requests, N in [$WORKERS], out $OUT"
nice -n 10 taskset -c "$ORACLE_CPU" java "${java_opts[@]}" -jar "$JAR" up >"$OUT/up.out" 2>"$OUT/up.err" </dev/null &
pids+=($!)
wait_for "$OUT/up.out" "export CAPSTREAM_BASE_URL\|export CAPSTREAM_SCHEMA" 120
hz=$(getconf CLK_TCK)
for n in $WORKERS; do
  log=$OUT/n$n.oracle.log
  taskset -c "$ORACLE_CPU" "$ORACLE_JAVA" --source 25 "$ORACLE_SRC" "$PORT" 100 64 10 "$log" >"$OUT/n$n.oracle.out" 2>&1 </dev/null &
  oracle=$!; pids+=($oracle)
  for _ in $(seq 1 300); do curl -sf --max-time 2 "$url/models" >/dev/null 2>&1 && break; sleep 0.1; done
  (( WARMUP > 0 )) && taskset -c "$WORKER_CPU" python3 "$repo/bench/fidelity/compare.py" warmup "$url" "$WARMUP" 100 </dev/null
  workers=()
  for w in $(seq 1 "$n"); do
    taskset -c "$WORKER_CPU" java "${java_opts[@]}" -jar "$JAR" worker "${kafka[@]}" --worker-id "n$n-w$w" \
      >"$OUT/n$n-w$w.out" 2>"$OUT/n$n-w$w.err" </dev/null &
    workers+=($!); pids+=($!)
  done
  for w in $(seq 1 "$n"); do wait_for "$OUT/n$n-w$w.err" "waiting for plans" 60; done
  # one discarded run first, so the measured one finds warm workers (JIT, connection pools)
  nice -n 10 taskset -c "$ORACLE_CPU" java "${java_opts[@]}" -jar "$JAR" run "${kafka[@]}" --workers "$n" \
    --base-url "$url" --model oracle --requests "$CONC" --concurrency "$CONC" --ctx-tokens 256 --shared-prefix-tokens 0 \
    --max-tokens 64 --max-model-len 1048576 --output "$OUT/n$n.warm.json" >"$OUT/n$n.warm.out" 2>&1 </dev/null || true
  before=0; for p in "${workers[@]}"; do before=$(( before + $(cpu_ticks "$p") )); done
  rc=0
  nice -n 10 taskset -c "$ORACLE_CPU" java "${java_opts[@]}" -jar "$JAR" run "${kafka[@]}" --workers "$n" \
    --base-url "$url" --model oracle --requests "$REQ" --concurrency "$CONC" --ctx-tokens 256 --shared-prefix-tokens 0 \
    --max-tokens 64 --max-model-len 1048576 --output "$OUT/n$n.json" >"$OUT/n$n.run.out" 2>"$OUT/n$n.run.err" </dev/null || rc=$?
  after=0; for p in "${workers[@]}"; do after=$(( after + $(cpu_ticks "$p") )); done
  echo
  echo "== $n worker(s): run exit $rc"
  grep -E '^(requests|workers|load) ' "$OUT/n$n.run.out" | sed 's/^/  /' || true
  [[ -f $OUT/n$n.json ]] && python3 "$CLIENT_ADDED" "$OUT/n$n.json" "$log" "n$n" | sed 's/^/  /'
  python3 - "$OUT/n$n.json" "$before" "$after" "$hz" <<'EOF'
import json, sys
art = json.load(open(sys.argv[1])); cpu_s = (int(sys.argv[3]) - int(sys.argv[2])) / int(sys.argv[4])
chunks = art["metrics"].get("content_chunks") or 0
c = art["capstream"]
print(f"  workers' CPU during the run {cpu_s:.2f} s, {1000 * 1000 * cpu_s / chunks if chunks else float('nan'):.1f} ms per 1,000 chunks"
      f" ({chunks} chunks); clock offset spread {c.get('clock_offset_spread_ms')} ms")
EOF
  for p in "${workers[@]}"; do stop_pid "$p"; done
  stop_pid "$oracle"
done
echo "files: $OUT"
