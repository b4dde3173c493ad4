#!/usr/bin/env bash
# Report-topology aggregation benchmark (see AggregationBench.java). Usage:
#   bench/aggregation/run.sh [runs=200] [requests=1000] [latencyRuns=30] [streamThreads=1] [partitions=3]
# Needs the modules installed/compiled: mvn -o -q -B install -DskipTests -pl schemas,load-generator,aggregator
# and mvn -o -q -B compile -pl cli.
set -euo pipefail
cd "$(dirname "$0")/../.."
CP_FILE=cli/target/bench-classpath.txt
if [ ! -s "$CP_FILE" ] || [ cli/pom.xml -nt "$CP_FILE" ]; then
  mvn -o -q -B dependency:build-classpath -pl cli -Dmdep.outputFile="$PWD/$CP_FILE" >/dev/null
fi
CP="cli/target/classes:$(cat "$CP_FILE")"
exec java -Xmx2g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -Dlogback.configurationFile=bench/aggregation/logback.xml \
  -cp "$CP" bench/aggregation/AggregationBench.java "$@"
