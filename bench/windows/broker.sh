#!/usr/bin/env bash
# Real-broker throughput of `aggregate` (reports, windows, alerts, exactly-once) on a pre-filled capstream.events,
# and the same broker's ceiling, a plain per-key Kafka Streams count (issue 31, item 3).
#   bench/windows/broker.sh [runs=20] [requests=10000] [rounds=1] [instances=1]
# Starts `./capstream up` (free loopback ports), fills capstream.events with runs x requests request events
# (bench/windows/backlog.sh fill: 10 targets, completion times over the last hour), then `rounds` times: starts
# `instances` aggregate processes with a fresh --application-id and times them from start until their consumer
# group's lag on capstream.events and the repartition topic is 0 (BrokerBench lag); with instances > 1 it then
# counts the requests in the window summaries (backlog.sh count); with one instance, the window topology alone
# (BrokerBench windows: EventsSource + WindowTopology, same settings). Then the count ceiling, once. Everything it
# starts is stopped by PID. CAPSTREAM_OLD=/path/to/other/checkout/capstream adds, in every round, the same
# measurement with that checkout's aggregate (alternating with this one). Prints one line per measurement.
# ONLY=windows measures the window topology alone (and the ceiling), ONLY=aggregate the whole aggregate (and the ceiling); BENCH_JAVA_OPTS are added to BrokerBench's JVM
# (e.g. -XX:StartFlightRecording=filename=win.jfr,settings=profile to profile it; "-XX:TieredStopAtLevel=1
# -Dbench.aggregateSettings=true" times the window topology as `aggregate` runs it: C1, its Streams settings). REPORTS_DUMP=DIR writes, after each aggregate, every report
# artifact still on capstream.reports, in publication order, to DIR/<label>/<run id>.<n>.json
# (bench/windows/ReportsDump.java): the last n of each run id is that aggregate's (earlier publications' chunks may be
# compacted away by then), to compare two versions' reports of the same fill. SUMMARIES_DUMP=DIR writes, after each
# window-topology-alone run, the window summaries it wrote (latest per key, one a line, every field: bench/windows/BacklogCheck.java summaries) to
# DIR/<label>.txt, to compare two versions' summaries of the same fill (diff).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
runs=${1:-20}; requests=${2:-10000}; rounds=${3:-1}; instances=${4:-1}
total=$((runs * requests))
work=$(mktemp -d "${TMPDIR:-/tmp}/capstream-broker-bench.XXXXXX")
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
[[ -z ${CAPSTREAM_OLD:-} ]] || "$CAPSTREAM_OLD" --version >/dev/null
cp=$(cpf=$(mktemp); mvn -o -q -B test-compile dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl schemas,aggregator -Dmdep.outputFile="$cpf" >/dev/null; cat "$cpf"; rm -f "$cpf")
# bench [classes root] mode args...: BrokerBench with that checkout's schemas and aggregator classes first
bench() { local root=$1; shift; BROKER_PID=$up_pid java -Xmx512m -XX:+UseParallelGC ${BENCH_JAVA_OPTS:-} -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream \
  -cp "$root/schemas/target/classes:$root/aggregator/target/classes:$cp" bench/windows/BrokerBench.java "$@"; }

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
echo "broker-bench: up ($flags), logs in $work"
bench/windows/backlog.sh fill "$bootstrap" "$registry" "$runs" "$requests" 10

measure() { # measure <label> <capstream script>
  local label=$1 cs=$2 app="bench-agg-$RANDOM$RANDOM" started=()
  for i in $(seq 1 "$instances"); do
    # shellcheck disable=SC2086  # $flags is a list of flags
    "$cs" aggregate $flags --application-id "$app" --state-dir "$work/state-$app-$i" --http-port 0 \
      >"$work/$app-$i.out" 2>"$work/$app-$i.err" &
    started+=($!); pids+=($!)
  done
  echo -n "broker-bench: $label, $instances instance(s), $total request events: "
  bench . lag "$bootstrap" "$app" "$total" 1800 "${started[@]}" 
  if [[ $instances -gt 1 ]]; then
    bench/windows/backlog.sh count "$bootstrap" "$registry" "$runs" | tail -n1
  fi
  stop "${started[@]}"
  if [[ -n ${REPORTS_DUMP:-} ]]; then # this aggregate's reports: the last <run id>.<n>.json of each run id
    dump "$REPORTS_DUMP/$(tr -c 'A-Za-z0-9\n' - <<<"$label")"
  fi
}
dump() { # dump <dir>: every report artifact still on capstream.reports(.chunks), in publication order
  java -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -cp "./schemas/target/classes:./aggregator/target/classes:$cp" \
    bench/windows/ReportsDump.java "$bootstrap" "$registry" "$1"
}
windows() { # windows <label> <checkout root>: the window topology alone
  echo -n "broker-bench: $1, "
  bench "$2" windows "$bootstrap" "$registry" "bench-win-$RANDOM$RANDOM" "$total" "$work/win-state-$RANDOM"
  if [[ -n ${SUMMARIES_DUMP:-} ]]; then # the summaries this run wrote (latest per key), to compare the versions'
    local out; out="$SUMMARIES_DUMP/$(tr -c 'A-Za-z0-9\n' - <<<"$1").txt"
    java -Xmx512m -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -cp "./schemas/target/classes:./aggregator/target/classes:$cp" \
      bench/windows/BacklogCheck.java summaries "$bootstrap" "$registry" "$SUMMARIES_DUMP/last.offsets" "$out" >/dev/null
    cp "$out.offsets" "$SUMMARIES_DUMP/last.offsets"
    echo "broker-bench: $1: $(wc -l <"$out") window summaries in $out"
  fi
}
old_root=${CAPSTREAM_OLD:+$(dirname "$CAPSTREAM_OLD")}
for r in $(seq 1 "$rounds"); do
  if [[ ${ONLY:-} != windows ]]; then
    measure "this checkout (round $r)" ./capstream
    [[ -z ${CAPSTREAM_OLD:-} ]] || measure "CAPSTREAM_OLD (round $r)" "$CAPSTREAM_OLD"
  fi
  if [[ $instances -eq 1 && ${ONLY:-} != aggregate ]]; then
    windows "this checkout (round $r)" .
    [[ -z $old_root ]] || windows "CAPSTREAM_OLD (round $r)" "$old_root"
  fi
done
echo -n "broker-bench: ceiling, "
bench . count "$bootstrap" "bench-count-$RANDOM$RANDOM" "$total" "$work/count-state"
