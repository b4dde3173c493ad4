#!/usr/bin/env bash
# Client-side scale check: minimal streaming server in one JVM, LoadGenerator in another.
#   bench/loadgen-client/run.sh [concurrency] [requests] [chunks] [ttft_ms] [chunk_interval_ms]
# CLIENT_JAVA_OPTS=-DkeepAlive=true reuses connections. Default: 2000 concurrent streams, 6000 requests, 32 chunks at 50 ms, TTFT 200 ms.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$here"
conc=${1:-2000}; requests=${2:-6000}; chunks=${3:-32}; ttft=${4:-200}; interval=${5:-50}
port=${PORT:-18477}
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# a private copy of the compiled classes, so that concurrent builds of the module do not interfere
mvn -o -q -B compile -pl load-generator >/dev/null
classes=$(mktemp -d); cp -r load-generator/target/classes/. "$classes/"
cp="$classes:$(cpf=$(mktemp); mvn -o -q -B dependency:build-classpath -pl load-generator -Dmdep.outputFile="$cpf" >/dev/null; cat "$cpf"; rm -f "$cpf")"
java -Xmx768m -cp "$cp" bench/loadgen-client/ClientScaleBench.java server "$port" "$ttft" "$chunks" "$interval" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do
  kill -0 "$server_pid" 2>/dev/null || { echo "server failed to start"; exit 1; }
  (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.2
done
java -Xmx1g ${CLIENT_JAVA_OPTS:-} -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -cp "$cp" bench/loadgen-client/ClientScaleBench.java \
  "http://127.0.0.1:$port/v1" "$ttft" "$conc" "$requests" "$chunks"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
trap - EXIT
rm -rf "$classes"
