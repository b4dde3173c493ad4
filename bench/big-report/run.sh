#!/usr/bin/env bash
# A run with the largest allowed number of requests (issue 11), end to end in one process: embedded Kafka,
# the in-process report aggregator, the built-in simulated engine, `capstream run`. Measures
#   - the time from the last request's end to the report file (events sent, aggregated, the report computed,
#     published in chunks, read back and written), from timestamped output lines;
#   - the process's peak memory: max RSS (/usr/bin/time -v) and the Java heap (GC log: largest heap in use
#     before a collection, and after one), with the GC the `capstream` script picks for run (ZGC);
#   - the records the report became: chunks, artifact bytes, report record and largest chunk record sizes
#     (the report collector's INFO line), and checks the file: every row, in order, and well-formed.
# Usage: bench/big-report/run.sh [requests, default 100000] [extra `capstream run` options...]
#   JAVA_OPTS_EXTRA adds JVM options (e.g. -Xmx2g) to the ones below; GC=parallel uses ParallelGC instead of ZGC
#   (on JDK 17, ZGC maps the heap three times, so its RSS overstates the memory in use; the GC log does not).
# Builds cli/target/capstream.jar offline when it is stale (mvn -o package). Nothing runs in the background afterwards.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
n=${1:-100000}
shift || true
# build offline when ./capstream would rebuild (same staleness rule), so that it does not
jar=cli/target/capstream.jar
if [[ ! -f $jar || -n $(find . -path ./.git -prune -o -path '*/target' -prune -o -path '*/node_modules' -prune -o \
    \( -name '*.java' -o -name 'pom.xml' -o -name '*.avsc' -o -path '*/src/main/resources/*' \) -type f \
    -newer "$jar" -print -quit) ]]; then
  mvn -B -q -o package -DskipTests -pl cli -am >&2
fi
out=$(mktemp -d /tmp/capstream-big-report.XXXXXX)
gc_opts="-XX:+UseZGC"
[[ ${GC:-zgc} == parallel ]] && gc_opts="-XX:+UseParallelGC"
export CAPSTREAM_JAVA_OPTS="$gc_opts -XX:TieredStopAtLevel=1 -Xlog:gc:file=$out/gc.log:uptime,tags \
  -Dlogback.configurationFile=$root/bench/big-report/logback.xml ${JAVA_OPTS_EXTRA:-}"
stamp() { while IFS= read -r line; do printf '%(%s)T.%s %s\n' -1 "$(date +%N | cut -c1-3)" "$line"; done; }
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB RAM, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "run: $n requests, $gc_opts, output in $out"
set +e
{ /usr/bin/time -v -o "$out/time.txt" ./capstream run --requests "$n" --concurrency 500 --max-tokens 4 --ctx-tokens 64 \
    --shared-prefix-tokens 0 --sim-ttft-ms 1 --sim-slots 500 --sim-replicas 2 --report-timeout 600 \
    --run-id-suffix big --output "$out/report.json" "$@" 2> >(stamp > "$out/stderr.txt") | stamp > "$out/stdout.txt"; }
code=$?
set -e
sleep 1 # let the stamping readers drain
echo "exit code: $code"
# the last request's end: run prints "requests done; sending ..." or "all requests ended; sending ..." with
# deferred event delivery (the embedded broker's default), else its last progress line has "in flight 0"
last=$(awk '/(requests done|all requests ended); sending/ {print $1; exit}' "$out/stderr.txt")
[[ -n $last ]] || last=$(awk '/[0-9]+\/[0-9]+ done .*in flight 0/ {print $1; exit}' "$out/stderr.txt")
published=$(awk '/report published in/ {print $1; exit}' "$out/stderr.txt")
written=$(awk '/report written to/ {print $1; exit}' "$out/stdout.txt")
if [[ -n $last && -n $written ]]; then
  awk -v a="$last" -v p="${published:-0}" -v b="$written" 'BEGIN {
    printf "last request -> report file: %.1f s", b - a
    if (p > 0) printf " (-> report published on the topics: %.1f s; -> read back, written and summarised: %.1f s)", p - a, b - p
    printf "\n" }'
fi
grep -h "report published in" "$out/stderr.txt" | sed 's/^[0-9.]* //' || echo "no chunked report line"
grep -E "Maximum resident set size|Elapsed \(wall|User time|System time" "$out/time.txt" | sed 's/^\s*//'
# ZGC: "Garbage Collection (...) 1234M(12%)->567M(6%)"; ParallelGC: "Pause Young (...) 1234M->567M(2048M)"
awk '/Pause|Garbage Collection/ && match($0, /[0-9]+M(\([0-9]+%\))?->[0-9]+M/) {
       s = substr($0, RSTART, RLENGTH); split(s, p, "->"); sub(/M.*/, "", p[1]); sub(/M.*/, "", p[2]);
       if (p[1] + 0 > before) before = p[1] + 0; if (p[2] + 0 > after) after = p[2] + 0; n++ }
     END { if (n) printf "Java heap: largest in use before a GC %d MB, after a GC %d MB (%d GCs)\n", before, after, n }' \
  "$out/gc.log"
if [[ -f $out/report.json ]]; then
  python3 - "$out/report.json" "$n" <<'PY'
import json, os, sys
path, n = sys.argv[1], int(sys.argv[2])
text = open(path, encoding="utf-8").read()
a = json.loads(text)
rows = a["request_timings"]
ok = [r["request_index"] for r in rows] == list(range(len(rows)))
print(f"report file: {os.path.getsize(path):,} bytes, {len(rows):,} rows (completed {a['completed']:,}, failed {a['failed']:,}"
      f" of {a['requests']:,}), indices in order: {ok}, complete: {a['capstream']['complete']}")
PY
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
