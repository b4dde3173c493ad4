#!/usr/bin/env bash
# Restore check of `aggregate` (issue 31, item 3): kill -9 mid-stream, restart, the same window summaries.
#   bench/windows/restore.sh [runs=10] [requests=10000] [kill-at=0.4]
# Starts `./capstream up` (free loopback ports), fills capstream.events (bench/windows/backlog.sh fill: runs x requests
# request events, 10 targets, completion times over the last hour), then:
#   1. reference: one `aggregate` (fresh --application-id) until its lag is 0; the window summaries it wrote (latest
#      per key) are saved;
#   2. crash: another `aggregate` (another application id), killed with SIGKILL once its group has committed kill-at
#      of capstream.events' records, then started again with the same application id on an empty state directory (as
#      on another machine: every store restored from its changelog; SAME_STATE=1 keeps the state directory), until its
#      lag is 0; the summaries written by the two (latest per key, from the end of the reference's) are saved.
# Then compares the two sets line by line (every field of every summary) and prints SAME or the differences; exit
# status 0 when they are the same. Everything it starts is stopped by PID. Logs and the summaries in a temp directory.
# REPORTS=1 also compares the report artifacts (the report topology's events and progress stores restored from their
# changelogs): after each of the two runs every artifact on capstream.reports is dumped (bench/windows/ReportsDump.java),
# and each run id's latest artifact of the crash run must equal the reference's but for capstream.generated_at_ms (the
# wall clock of the publication).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
runs=${1:-10}; requests=${2:-10000}; kill_at=${3:-0.4}
total=$((runs * requests))
work=$(mktemp -d "${TMPDIR:-/tmp}/capstream-restore.XXXXXX")
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
pids=()
up_pid=""
stop() { # stop <pid>...: SIGTERM, wait up to 30 s
  for p in "$@"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "$@"; do for _ in $(seq 1 60); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done; done
}
cleanup() { stop "${pids[@]}" ${up_pid:+"$up_pid"}; }
trap cleanup EXIT

./capstream --version >/dev/null
cp=$(cpf=$(mktemp); mvn -o -q -B test-compile dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl schemas,aggregator -Dmdep.outputFile="$cpf" >/dev/null; cat "$cpf"; rm -f "$cpf")
java_run() { java -Xmx512m -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream \
  -cp "schemas/target/classes:aggregator/target/classes:$cp" "$@"; }

touch "$work/up.out"
./capstream up --kafka-port "$(free_port)" --registry-port "$(free_port)" >"$work/up.out" 2>"$work/up.err" &
up_pid=$!
flags=""
for _ in $(seq 1 360); do
  flags=$(sed -n 's/^capstream up: ready //p' "$work/up.out" | head -n1)
  [[ -n $flags ]] && break
  kill -0 "$up_pid" 2>/dev/null || { cat "$work/up.err" >&2; exit 1; }
  sleep 0.5
done
[[ -n $flags ]] || { echo "capstream up not ready" >&2; exit 1; }
bootstrap=$(grep -o -- '--bootstrap-servers[= ][^ ]*' <<<"$flags" | sed 's/--bootstrap-servers[= ]//')
registry=$(grep -o -- '--schema-registry-url[= ][^ ]*' <<<"$flags" | sed 's/--schema-registry-url[= ]//')
echo "restore: up ($flags), logs in $work"
bench/windows/backlog.sh fill "$bootstrap" "$registry" "$runs" "$requests" 10

aggregate() { # aggregate <app> <log name> [state dir]: starts one aggregate in the background, its PID in $agg
  # CAPSTREAM_CDS=0: the launcher then execs the JVM (while it writes its class-data archive it runs the JVM as a
  # child, and a SIGKILL of the launcher's PID would leave that JVM running beside the restarted one)
  # shellcheck disable=SC2086  # $flags is a list of flags
  CAPSTREAM_CDS=0 ./capstream aggregate $flags --application-id "$1" --state-dir "${3:-$work/state-$1}" --http-port 0 \
    >"$work/$2.out" 2>"$work/$2.err" &
  agg=$!; pids+=("$agg")
}

ref="restore-ref-$RANDOM$RANDOM"
aggregate "$ref" reference
echo -n "restore: reference: "
java_run bench/windows/BrokerBench.java lag "$bootstrap" "$ref" "$total" 1800 "$agg"
java_run bench/windows/BacklogCheck.java summaries "$bootstrap" "$registry" "$work/none" "$work/reference.txt"
stop "$agg"
dump_reports() { # dump_reports <dir>: every report artifact on capstream.reports, <run id>.<n>.json
  java -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -cp "schemas/target/classes:aggregator/target/classes:$cp" \
    bench/windows/ReportsDump.java "$bootstrap" "$registry" "$1"
}
[[ ${REPORTS:-0} != 1 ]] || dump_reports "$work/reports-reference"

crash="restore-crash-$RANDOM$RANDOM"
aggregate "$crash" crash-1
java_run bench/windows/BacklogCheck.java committed "$bootstrap" "$crash" "$kill_at"
kill -KILL "$agg"
wait "$agg" 2>/dev/null || true
echo "restore: killed aggregate $agg with SIGKILL"
if [[ ${SAME_STATE:-0} == 1 ]]; then aggregate "$crash" crash-2; else aggregate "$crash" crash-2 "$work/state-$crash-2"; fi
echo -n "restore: restarted: "
java_run bench/windows/BrokerBench.java lag "$bootstrap" "$crash" "$total" 1800 "$agg"
java_run bench/windows/BacklogCheck.java summaries "$bootstrap" "$registry" "$work/reference.txt.offsets" "$work/crash.txt"
stop "$agg"
if [[ ${REPORTS:-0} == 1 ]]; then
  dump_reports "$work/reports-crash"
  latest() { # latest <dir> <run id>: that run id's last artifact in the dump
    find "$1" -name "$2.*.json" | awk -F. '{print $(NF-1), $0}' | sort -n | tail -n1 | cut -d' ' -f2-
  }
  differ=0; runs_seen=0
  for id in $(find "$work/reports-reference" -name '*.json' | xargs -n1 basename | sed 's/\.[0-9]*\.json$//' | sort -u); do
    runs_seen=$((runs_seen + 1))
    a=$(latest "$work/reports-reference" "$id"); b=$(latest "$work/reports-crash" "$id")
    if [[ -z $b ]] || ! diff -q <(jq -S 'del(.capstream.generated_at_ms)' "$a") \
        <(jq -S 'del(.capstream.generated_at_ms)' "$b") >/dev/null; then
      echo "restore: report of run $id DIFFERENT ($a, ${b:-none})"; differ=1
    fi
  done
  [[ $differ == 0 ]] || exit 1
  echo "restore: SAME: $runs_seen reports, every field equal after kill -9 and restart but capstream.generated_at_ms"
fi

if diff -q "$work/reference.txt" "$work/crash.txt" >/dev/null; then
  echo "restore: SAME: $(wc -l <"$work/reference.txt") window summaries, every field equal after kill -9 and restart"
else
  echo "restore: DIFFERENT ($work/reference.txt, $work/crash.txt):"
  diff "$work/reference.txt" "$work/crash.txt" | cut -c1-300 | head -n 20
  exit 1
fi
