#!/usr/bin/env bash
# bench/local-stack.sh: the "capstream up" check, by hand (not a timed unit test).
#
# 1. starts `./capstream up` in the background (embedded Kafka + Apicurio Registry child process),
# 2. waits for its "capstream up: ready ..." line and takes the flags from it,
# 3. runs `./capstream run <flags> --requests 20` from a second process (in-process simulated engine),
# 4. reads the report back with `./capstream tail reports <flags>` from a third process,
# 5. stops the stack with SIGTERM by PID and checks that neither the stack nor its registry child
#    process is left (pgrep), then prints a summary with timings.
#
# Ports: free loopback ports are picked unless KAFKA_PORT / REGISTRY_PORT are set.
# Exit code 0 when every step worked. Everything listens on 127.0.0.1 and stops by itself.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cs="$root/capstream"
work=$(mktemp -d "${TMPDIR:-/tmp}/capstream-local-stack.XXXXXX")
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
kafka_port=${KAFKA_PORT:-$(free_port)}
registry_port=${REGISTRY_PORT:-$(free_port)}
ready_timeout=${READY_TIMEOUT:-180}
up_pid=""
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
fail() { echo "local-stack: FAILED: $*" >&2; echo "  logs: $work" >&2; exit 1; }
cleanup() {
  if [[ -n $up_pid ]] && kill -0 "$up_pid" 2>/dev/null; then
    kill -TERM "$up_pid" 2>/dev/null
    for _ in $(seq 1 60); do kill -0 "$up_pid" 2>/dev/null || break; sleep 0.5; done
  fi
}
trap cleanup EXIT

echo "local-stack: building / checking the jar ..."
"$cs" --version >/dev/null || fail "capstream does not build"

echo "local-stack: capstream up --kafka-port $kafka_port --registry-port $registry_port (logs in $work)"
t0=$(now)
"$cs" up --kafka-port "$kafka_port" --registry-port "$registry_port" >"$work/up.out" 2>"$work/up.err" &
up_pid=$!
flags=""
deadline=$(( $(date +%s) + ready_timeout ))
while [[ $(date +%s) -lt $deadline ]]; do
  flags=$(sed -n 's/^capstream up: ready //p' "$work/up.out" | head -n1)
  [[ -n $flags ]] && break
  kill -0 "$up_pid" 2>/dev/null || { cat "$work/up.err" >&2; fail "capstream up exited before it was ready"; }
  sleep 0.5
done
[[ -n $flags ]] || fail "capstream up not ready after ${ready_timeout}s"
t_ready=$(now)
echo "local-stack: ready after $(secs "$t0" "$t_ready") s: $flags"
children=$(pgrep -P "$up_pid" | tr '\n' ' ')
echo "local-stack: up pid $up_pid, child processes: ${children:-none}"
[[ -n $children ]] || fail "no registry child process found under capstream up"

# shellcheck disable=SC2086  # $flags is a list of flags
"$cs" run $flags --requests 20 --output "$work/report.json" >"$work/run.out" 2>"$work/run.err"
run_rc=$?
t_run=$(now)
echo "local-stack: capstream run exit $run_rc after $(secs "$t_ready" "$t_run") s"
[[ $run_rc -eq 0 ]] || { tail -n 20 "$work/run.err" >&2; fail "capstream run failed"; }
run_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["run_id"])' "$work/report.json") \
  || fail "no readable report at $work/report.json"
echo "local-stack: report file written, run_id $run_id"

# shellcheck disable=SC2086
timeout 120 "$cs" tail reports $flags ${TAIL_ARGS:---from-beginning --format jsonl} >"$work/tail.out" 2>"$work/tail.err"
tail_rc=$?
t_tail=$(now)
echo "local-stack: capstream tail reports exit $tail_rc after $(secs "$t_run" "$t_tail") s"
grep -q "$run_id" "$work/tail.out" || { tail -n 20 "$work/tail.err" >&2; fail "tail reports did not show run $run_id"; }
echo "local-stack: tail reports shows run $run_id"

kill -TERM "$up_pid"
for _ in $(seq 1 120); do kill -0 "$up_pid" 2>/dev/null || break; sleep 0.25; done
t_stop=$(now)
if kill -0 "$up_pid" 2>/dev/null; then fail "capstream up (pid $up_pid) still running 30 s after SIGTERM"; fi
wait "$up_pid" 2>/dev/null
up_rc=$?
left=""
for pid in $children; do kill -0 "$pid" 2>/dev/null && left="$left $pid"; done
stray=$(pgrep -f "quarkus.http.port=$registry_port" | tr '\n' ' ')
echo "local-stack: stopped after $(secs "$t_tail" "$t_stop") s (exit $up_rc); children left:${left:- none}; registry processes on port $registry_port: ${stray:-none}"
[[ -z $left && -z $stray ]] || fail "processes left behind:$left $stray"
grep -q "capstream up: stopped" "$work/up.err" || fail "no clean-stop line in the up log"
up_pid=""
echo "local-stack: OK (ready $(secs "$t0" "$t_ready") s, run $(secs "$t_ready" "$t_run") s, tail $(secs "$t_run" "$t_tail") s, stop $(secs "$t_tail" "$t_stop") s)"
