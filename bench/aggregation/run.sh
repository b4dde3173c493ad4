#!/usr/bin/env bash
# Report-topology aggregation benchmark (see AggregationBench.java). Usage:
#   bench/aggregation/run.sh [runs=1200] [requests=1000] [latencyRuns=30] [streamThreads=cores, max 4] [partitions=4]
# Needs the modules installed/compiled: mvn -o -q -B install -DskipTests -pl schemas,load-generator,aggregator
# and mvn -o -q -B compile -pl cli. BENCH_PREPEND_CP=dir puts classes first on the classpath (A/B runs).
# BENCH_GC (default -XX:+UseParallelGC, what ./capstream uses for the aggregator commands): the collector.
set -euo pipefail
cd "$(dirname "$0")/../.."
CP_FILE=cli/target/bench-classpath.txt
if [ ! -s "$CP_FILE" ] || [ cli/pom.xml -nt "$CP_FILE" ]; then
  mvn -o -q -B dependency:build-classpath -pl cli -Dmdep.outputFile="$PWD/$CP_FILE" >/dev/null
fi
# Snapshot the cli classes: other builds may clean cli/target while the benchmark runs.
SNAP=$(mktemp -d /tmp/capstream-bench-cp.XXXXXX)
trap 'rm -rf "$SNAP"' EXIT
[ -d cli/target/classes/io ] || mvn -o -q -B compile -pl cli >/dev/null
cp -r cli/target/classes "$SNAP/cli-classes"
CP="${BENCH_PREPEND_CP:+$BENCH_PREPEND_CP:}$SNAP/cli-classes"
if [ -d aggregator/target/classes/io ]; then cp -r aggregator/target/classes "$SNAP/agg-classes"; CP="$CP:$SNAP/agg-classes"; fi
for jar in $(tr ':' '\n' < "$CP_FILE"); do
  case "$jar" in
    */io/capstream/*) cp "$jar" "$SNAP/"; CP="$CP:$SNAP/$(basename "$jar")" ;;
    *) CP="$CP:$jar" ;;
  esac
done
java -Xmx2g ${BENCH_GC:--XX:+UseParallelGC} ${BENCH_JAVA_OPTS:-} -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -Dlogback.configurationFile=bench/aggregation/logback.xml \
  -cp "$CP" bench/aggregation/AggregationBench.java "$@"
