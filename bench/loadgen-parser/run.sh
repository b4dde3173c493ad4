#!/usr/bin/env bash
# Per-chunk CPU and allocation of the load generator's SSE reader (single thread, no network).
#   bench/loadgen-parser/run.sh [streams]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
[[ -f load-generator/target/classes/io/capstream/loadgen/client/ChunkAccumulator.class ]] || mvn -o -q -B compile -pl load-generator
cp=$(cpf=$(mktemp); mvn -o -q -B dependency:build-classpath -pl load-generator -Dmdep.outputFile="$cpf" >/dev/null; cat "$cpf"; rm -f "$cpf")
java -Xmx512m -cp "load-generator/target/classes:$cp" bench/loadgen-parser/SseParserBench.java "${1:-200000}"
