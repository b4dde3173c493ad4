#!/usr/bin/env bash
# Client-added TTFT against the deterministic oracle target (/work/shared/peers/oracle/Oracle.java: role chunk at
# once, 64 one-token chunks, the first 100 ms after the body was read, then every 10 ms). Per scenario: a FRESH
# oracle (own log) pinned to core ORACLE_CPU, warmed up with requests that carry no request index, then ONE whole
# client process pinned to core CLIENT_CPU. Prints client_added.py's line (client TTFT minus the oracle's own
# body-read-to-first-chunk time, joined by request index), client-added E2E, the client process's wall and CPU, and
# the report's achieved-concurrency object (`capstream.client`, verbatim) when it has one.
#
#   bench/fidelity/oracle.sh                                   # capstream, every scenario
#   SCENARIOS="cold1 c1x10 c16" bench/fidelity/oracle.sh
#   CLIENT=reference SCENARIOS="cold1 c1x10 c16 c64 c256" bench/fidelity/oracle.sh
#   JAR=/tmp/before/cli/target/capstream.jar bench/fidelity/oracle.sh
#
# Scenarios: cold1 = 1 request, concurrency 1 (a new process: JVM start, embedded broker and aggregator, first
# request on a cold JIT); c1x10 = 10 requests at concurrency 1; cN = concurrency N with 4 x N requests (~4 waves):
# c16, c64, c256, c1000, c4000 (default list); cNxM = concurrency N, M requests.
# Env: CLIENT capstream|reference|floor (default capstream; floor = FloorClient.java, a bare one-thread NIO client:
#      this machine's floor); JAR (default <repo>/cli/target/capstream.jar); JAVA (java);
#      CAPSTREAM_JAVA_OPTS (default -XX:+UseZGC -XX:TieredStopAtLevel=1, as ./capstream run); EXTRA_ARGS (appended to the client's command line);
#      PORT (18490); CLIENT_CPU (0); ORACLE_CPU (1); WARMUP (3000 oracle warm-up requests, 0 = none; with 200 the
#      oracle's own accept path is still cold and adds up to ~1 ms per new connection of a wave, to every client);
#      WARMUP_PAR (100 warm-up requests at once); FLOOR_WARMUP (500 discarded requests the floor client sends first);
#      RUN_TIMEOUT (600 s per client process); OUT (results dir, default a new /tmp/capstream-fidelity-oracle.*);
#      CAPTURE=1: tcpdump on lo during each client run (pinned to CAPTURE_CPU, default the oracle's core, nice 10), then
#      wire.py splits client-added TTFT by the kernel's packet times into the client's part and the oracle's.
# Every process is started by this script and stopped by PID (trap); everything listens on 127.0.0.1 only.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
CLIENT=${CLIENT:-capstream}
JAR=${JAR:-$repo/cli/target/capstream.jar}
JAVA=${JAVA:-java}
CAPSTREAM_JAVA_OPTS=${CAPSTREAM_JAVA_OPTS--XX:+UseZGC -XX:TieredStopAtLevel=1}
EXTRA_ARGS=${EXTRA_ARGS:-}
SCENARIOS=${SCENARIOS:-"cold1 c1x10 c16 c64 c256 c1000 c4000"}
PORT=${PORT:-18490}
CLIENT_CPU=${CLIENT_CPU:-0}
ORACLE_CPU=${ORACLE_CPU:-1}
WARMUP=${WARMUP:-3000}
RUN_TIMEOUT=${RUN_TIMEOUT:-600}
CAPTURE=${CAPTURE:-0}
CAPTURE_CPU=${CAPTURE_CPU:-$ORACLE_CPU}
ORACLE_JAVA=${ORACLE_JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
ORACLE_SRC=${ORACLE_SRC:-/work/shared/peers/oracle/Oracle.java}
CLIENT_ADDED=${CLIENT_ADDED:-/work/shared/peers/oracle/client_added.py}
OUT=${OUT:-$(mktemp -d /tmp/capstream-fidelity-oracle.XXXXXX)}
mkdir -p "$OUT"
url="http://127.0.0.1:$PORT/v1"

case $CLIENT in
  capstream) [[ -f $JAR ]] || { echo "no jar at $JAR (build it, or set JAR=...)" >&2; exit 2; } ;;
  reference|floor) ;;
  *) echo "CLIENT must be capstream, reference or floor" >&2; exit 2 ;;
esac
# thousands of streams: one socket each in the client and in the oracle
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

if [[ $CAPTURE == 1 ]] && ! command -v tcpdump >/dev/null; then
  echo "CAPTURE=1 needs tcpdump (Debian: apt-get install tcpdump) and the right to capture on lo" >&2; exit 2
fi
oracle_pid= client_pid= warm_pid= capture_pid=
stop_pid() {  # stop one process we started, by PID, and reap it ($2 = seconds before SIGKILL, default 5)
  local pid=$1
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 $(( ${2:-5} * 10 ))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() { stop_pid "$client_pid" 20; stop_pid "$warm_pid"; stop_pid "$capture_pid"; stop_pid "$oracle_pid"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

start_oracle() {  # $1 = log file
  (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && { echo "port $PORT is already in use" >&2; exit 1; }
  taskset -c "$ORACLE_CPU" "$ORACLE_JAVA" --source 25 "$ORACLE_SRC" "$PORT" 100 64 10 "$1" \
    >"${1%.log}.out" 2>&1 </dev/null &
  oracle_pid=$!
  for _ in $(seq 1 300); do
    kill -0 "$oracle_pid" 2>/dev/null || { echo "oracle exited: $(cat "${1%.log}.out")" >&2; exit 1; }
    curl -sf --max-time 2 "$url/models" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "oracle did not start within 30 s" >&2; exit 1
}

scenario() {  # prints "requests concurrency"
  case $1 in
    cold1) echo "1 1" ;;
    c[0-9]*x[0-9]*) local c=${1#c}; echo "${c#*x} ${c%x*}" ;;
    c[0-9]*) local c=${1#c}; echo "$((4 * c)) $c" ;;
    *) echo "unknown scenario $1" >&2; return 1 ;;
  esac
}

echo "client=$CLIENT$([[ $CLIENT == capstream ]] && echo " jar=$JAR") scenarios=[$SCENARIOS] out=$OUT"
echo "oracle: TTFT 100 ms, 64 tokens, 10 ms apart, core $ORACLE_CPU; client core $CLIENT_CPU; ulimit -n $(ulimit -n)"
summary=$OUT/summary.jsonl
: >"$summary"
for name in $SCENARIOS; do
  sc=$(scenario "$name") || exit 2
  read -r req conc <<<"$sc"
  log=$OUT/$name.$CLIENT.oracle.log
  report=$OUT/$name.$CLIENT.json
  timef=$OUT/$name.$CLIENT.time
  rm -f "$report" "$timef"
  start_oracle "$log"
  if (( WARMUP > 0 )); then  # JIT-warm the oracle's HTTP path; logged with index -1, so never joined
    taskset -c "$CLIENT_CPU" python3 "$here/compare.py" warmup "$url" "$WARMUP" "${WARMUP_PAR:-100}" </dev/null &
    warm_pid=$!
    wait "$warm_pid" || echo "warm-up had failures" >&2
    warm_pid=
  fi
  kill -0 "$oracle_pid" 2>/dev/null || { echo "the oracle exited after its warm-up: $(cat "${log%.log}.out")" >&2; exit 1; }
  common=(--base-url "$url" --model oracle --requests "$req" --concurrency "$conc" --ctx-tokens 256
          --shared-prefix-tokens 0 --max-tokens 64 --max-model-len 1048576 --output "$report")
  if [[ $CLIENT == capstream ]]; then
    # shellcheck disable=SC2086
    cmd=("$JAVA" $CAPSTREAM_JAVA_OPTS -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -jar "$JAR" run "${common[@]}")
  elif [[ $CLIENT == floor ]]; then  # the machine's floor: bare NIO, no HTTP or JSON parsing (FloorClient.java)
    cmd=("$JAVA" -XX:+UseSerialGC --source 17 "$here/FloorClient.java" 127.0.0.1 "$PORT" "$conc" "$req" "$report" "${FLOOR_WARMUP:-500}")
  else
    cmd=(python3 "$here/reference_runner.py" "${common[@]}")
  fi
  # shellcheck disable=SC2206
  cmd+=($EXTRA_ARGS)
  echo
  echo "== $name: $req requests, concurrency $conc ($CLIENT)"
  pcap=$OUT/$name.$CLIENT.pcap
  if [[ $CAPTURE == 1 ]]; then  # the kernel's packet times on lo, one clock for client and oracle (wire.py)
    rm -f "$pcap"
    taskset -c "$CAPTURE_CPU" nice -n 10 tcpdump -i lo -n -q -s 4096 -B 65536 --time-stamp-precision=nano \
      -w "$pcap" "tcp port $PORT" >"$OUT/$name.$CLIENT.tcpdump.out" 2>&1 </dev/null &
    capture_pid=$!
    for _ in $(seq 1 50); do grep -q "listening on" "$OUT/$name.$CLIENT.tcpdump.out" 2>/dev/null && break; sleep 0.1; done
  fi
  rc=0
  # timeout is the process-group leader: stopping its PID stops /usr/bin/time and the client under it
  taskset -c "$CLIENT_CPU" timeout -k 10 "$RUN_TIMEOUT" /usr/bin/time -f '%e %U %S' -o "$timef" "${cmd[@]}" \
    >"$OUT/$name.$CLIENT.out" 2>&1 </dev/null &
  client_pid=$!
  wait "$client_pid" || rc=$?
  client_pid=
  if ! kill -0 "$oracle_pid" 2>/dev/null; then  # a dead target turns every request into a URLError
    orc=0; wait "$oracle_pid" 2>/dev/null || orc=$?
    echo "  WARNING: the oracle (pid $oracle_pid) exited during the run, status $orc: results of $name are void"
  fi
  stop_pid "$capture_pid"; capture_pid=
  stop_pid "$oracle_pid"; oracle_pid=
  (( rc == 0 )) || { echo "  client exit code $rc (output: $OUT/$name.$CLIENT.out)"; tail -n 5 "$OUT/$name.$CLIENT.out" | sed 's/^/  | /'; }
  if [[ -f $report ]]; then
    python3 "$CLIENT_ADDED" "$report" "$log" "$name" | sed 's/^/  /'
    if [[ $CAPTURE == 1 ]]; then
      python3 "$here/wire.py" "$pcap" "$report" "$log" "$PORT" "$name" "$OUT/wire.jsonl" | sed 's/^/  /' || true
    fi
  fi
  python3 "$here/compare.py" oracle "$name" "$report" "$log" "$timef" "$summary"
done
echo
echo "summary ($CLIENT; added = client TTFT - oracle's own first-chunk time, ms; E2E+ = client E2E - oracle's end time):"
python3 "$here/compare.py" oracle-table "$summary"
echo "files: $OUT"
