#!/usr/bin/env bash
# The issue-27 backlog check, by hand: fill capstream.events first, then start the aggregator, then count.
#   bench/windows/backlog.sh fill  BOOTSTRAP REGISTRY [runs=50] [requests=6000] [targets=10]
#   bench/windows/backlog.sh count BOOTSTRAP REGISTRY [runs=50]
# Start `./capstream up` first (its ready line gives BOOTSTRAP and REGISTRY), fill, then
# `./capstream aggregate --window 1m ...` and count. Needs the modules compiled (mvn -o -q -B compile -pl aggregator -am).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
cp=$(cpf=$(mktemp); mvn -o -q -B test-compile dependency:build-classpath -DexcludeArtifactIds=logback-classic,logback-core -pl schemas,aggregator -Dmdep.outputFile="$cpf" >/dev/null; cat "$cpf"; rm -f "$cpf")
mode=$1; shift
if [[ $mode == fill ]]; then
  args=(fill "$1" "$2" "${3:-50}" "${4:-6000}" "${5:-10}")
else
  args=(count "$1" "$2" "${3:-50}")
fi
java -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -cp "schemas/target/classes:aggregator/target/classes:$cp" \
  bench/windows/BacklogCheck.java "${args[@]}"
