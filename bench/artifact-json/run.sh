#!/usr/bin/env bash
# Artifact JSON / report microbenchmark (see ArtifactJsonBench.java). Usage:
#   bench/artifact-json/run.sh [requests=1000] [iterations=400] [rounds=5]
# Needs: mvn -o -q -B install -DskipTests -pl schemas,aggregator
# BENCH_PREPEND_CP=dir puts classes first on the classpath (e.g. the old version of a class for an A/B run).
set -euo pipefail
cd "$(dirname "$0")/../.."
CP_FILE=aggregator/target/artifact-bench-classpath.txt
if [ ! -s "$CP_FILE" ] || [ aggregator/pom.xml -nt "$CP_FILE" ]; then
  mvn -o -q -B dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl aggregator -Dmdep.outputFile="$PWD/$CP_FILE" >/dev/null
fi
SNAP=$(mktemp -d /tmp/capstream-artifact-bench.XXXXXX)
trap 'rm -rf "$SNAP"' EXIT
cp -r aggregator/target/classes "$SNAP/agg-classes"
CP="${BENCH_PREPEND_CP:+$BENCH_PREPEND_CP:}$SNAP/agg-classes"
for jar in $(tr ':' '\n' < "$CP_FILE"); do
  case "$jar" in
    */io/capstream/*) cp "$jar" "$SNAP/"; CP="$CP:$SNAP/$(basename "$jar")" ;;
    *) CP="$CP:$jar" ;;
  esac
done
java -Xmx1g ${BENCH_JAVA_OPTS:-} -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -cp "$CP" bench/artifact-json/ArtifactJsonBench.java "$@"
