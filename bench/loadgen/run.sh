#!/usr/bin/env bash
# Load-generator benchmark: the simulated engine in its own JVM, the generator in another.
#   bench/loadgen/run.sh            # default phases (see below)
# Phases (PHASES="name:requests:concurrency[:keepalive][:poisson=RPS][:ramp=SECONDS] ..."):
#   warmup   2,000 requests at 1,000 concurrent (JIT warm-up, numbers ignored)
#   c5000   10,000 requests at 5,000 concurrent streams, 64 output tokens each: no client-caused failures
#   open160  8,000 requests, open loop at 160 req/s (~1,000 streams in flight): TTFT overhead over the
#            engine's 200 ms at p99 without the closed loop's synchronised waves
#   c1000   10,000 requests, closed loop, 1,000 concurrent streams: the same in a closed loop. The first 1,000
#            requests start together (the start burst, reported apart from the steady state after it). With
#            SIM_DECODE_SPREAD=0 every stream lasts the same 6.6 s, so each later wave of 1,000 also starts
#            within milliseconds; the default 0.2 lets the streams drift apart as real engines' streams do.
#   c1000ramp the same with --ramp-up 2s: the 1,000 slots start over 2 s instead of in one burst
# Both JVMs use ZGC (BENCH_GC to change): with ParallelGC or G1 the GC pauses (12-27 ms) set the p99.
# SIM_REPLICAS (2): engine replicas/event loops in the sim. SIM_DECODE_SPREAD (0.2): see c1000 above. SIM_JAVA_OPTS / CLIENT_JAVA_OPTS: extra JVM options.
# Both processes are stopped by PID at the end. Needs `ulimit -n` >= ~12,000 (raised below when allowed).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
port=${SIM_PORT:-18400}
ttft_ms=${SIM_TTFT_MS:-200}
stream_tok_s=${SIM_STREAM_TOK_S:-10}     # per-stream decode: 64 tokens take ~6.4 s
replicas=${SIM_REPLICAS:-2}           # engine replicas (event loops) in the sim process
spread=${SIM_DECODE_SPREAD:-0.2}      # per-stream decode rate drawn from 10 tok/s x [0.8, 1.2): streams drift apart
phases=${PHASES:-"warmup:2000:1000 c5000:10000:5000 open160:8000:1000:poisson=160 c1000:10000:1000 c1000ramp:10000:1000:ramp=2"}
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" || true
echo "ulimit -n: $(ulimit -n)"
jar="${CAPSTREAM_JAR:-$here/cli/target/capstream.jar}"
[[ -f $jar ]] || (cd "$here" && ./capstream --version >/dev/null)

java -Xmx1g ${BENCH_GC:--XX:+UseZGC} ${SIM_JAVA_OPTS:-} -jar "$jar" sim --port "$port" --sim-ttft-ms "$ttft_ms" --sim-prefill-tok-s 0 \
  --sim-slots 20000 --sim-decode-tok-s 1000000 --sim-stream-tok-s "$stream_tok_s" --sim-output-tokens 64 \
  --sim-no-prefix-cache --sim-max-model-len 32768 --sim-replicas "$replicas" \
  --sim-decode-spread "$spread" >/tmp/capstream-bench-sim.log 2>&1 &
sim_pid=$!
trap 'kill "$sim_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null && break
  sleep 0.2
done
echo "sim pid $sim_pid on port $port (TTFT $ttft_ms ms, $stream_tok_s tok/s per stream, decode spread $spread, 64 tokens, $replicas replicas)"
# shellcheck disable=SC2086
java -Xmx2g ${BENCH_GC:--XX:+UseZGC} ${CLIENT_JAVA_OPTS:-} -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -cp "$jar" \
  "$here/bench/loadgen/LoadgenBench.java" "http://127.0.0.1:$port/v1" "$ttft_ms" $phases
echo; echo "engine counters (last phase TTFT): $(curl -s "http://127.0.0.1:$port/sim/stats")"
echo "sim process CPU (all phases): $(ps -o cputime= -p "$sim_pid")"
kill "$sim_pid"; wait "$sim_pid" 2>/dev/null || true
trap - EXIT
