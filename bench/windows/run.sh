#!/usr/bin/env bash
# CPU cost of the windowed-summaries processors on TopologyTestDriver (single thread, no broker).
#   bench/windows/run.sh [events] [keys]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
[[ -f aggregator/target/classes/io/capstream/aggregator/window/WindowTopology.class ]] || mvn -o -q -B compile -pl aggregator
cp=$(cpf=$(mktemp); mvn -o -q -B test-compile dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl schemas,aggregator -Dmdep.includeScope=test -Dmdep.outputFile="$cpf" >/dev/null; cat "$cpf"; rm -f "$cpf")
java -Xmx1g ${BENCH_JAVA_OPTS:-} -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -cp "schemas/target/classes:aggregator/target/classes:$cp" bench/windows/WindowBench.java "${1:-200000}" "${2:-20}"
