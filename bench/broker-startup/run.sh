#!/usr/bin/env bash
# Embedded KRaft broker: time from EmbeddedKafka.start() to the first acknowledged send (acks=all).
#   cold: N fresh JVMs, one start each (what `capstream run` pays: class loading + JIT included)
#   warm: one JVM, N starts (the broker's own start-up work)
# The JVM CPU time of a cold start is reported too: unlike wall time it does not depend on how busy
# the machine is (on an idle 2-core box the wall time is roughly CPU time / 1.5).
# Usage: bench/broker-startup/run.sh [N, default 5]; extra JVM options in BENCH_JAVA_OPTS.
# Needs the other modules installed (mvn -o -q install -DskipTests); compiles cli's test classes.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
n=${1:-5}
cp_file="$root/cli/target/bench-classpath.txt"
mvn -o -q -B -pl cli test-compile dependency:build-classpath -Dmdep.outputFile="$cp_file" -Dmdep.includeScope=test >&2
run() {
  java ${BENCH_JAVA_OPTS:-} -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream \
    -Dlogback.configurationFile="$root/cli/src/test/resources/logback-test.xml" \
    -cp "cli/target/test-classes:cli/target/classes:$(cat "$cp_file")" io.capstream.bench.BrokerStartupBench "$@" 2>/dev/null
}
stats() { sort -n | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:int((v[NR/2]+v[NR/2+1])/2); printf "min %d ms, median %d ms, max %d ms (n=%d)\n", v[1], m, v[NR], NR}'; }
echo "machine: $(nproc) cores, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
cold=(); cpu=()
for i in $(seq 1 "$n"); do
  read -r total _ c < <(run 1 | awk '/^RESULT/ {print $2, $3, $4}')
  echo "cold $i: start to first acked send $total ms (JVM CPU time until then: $c ms)"
  cold+=("$total"); cpu+=("$c")
done
echo -n "cold (fresh JVM each), wall: "; printf '%s\n' "${cold[@]}" | stats
echo -n "cold (fresh JVM each), JVM CPU time: "; printf '%s\n' "${cpu[@]}" | stats
echo -n "warm (one JVM, reps 2..$((n + 1))): "; run $((n + 1)) | awk '/^RESULT/ {print $2}' | tail -n +2 | stats
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
