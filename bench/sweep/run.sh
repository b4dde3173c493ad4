#!/usr/bin/env bash
# Sweep overhead benchmark (issue 12): what a 10-step `capstream sweep` costs beyond its runs.
#   bench/sweep/run.sh                 # 10 steps, --concurrency 1:10:+1, 20 requests per step
#   STEPS=1:20:+1 REQUESTS=40 bench/sweep/run.sh
# Runs against the built-in simulated engine on the embedded stack, using cli/target/capstream.jar
# (CAPSTREAM_JAR to override; built with ./capstream --version when missing). It runs
#   1. one `capstream run` with the workload of a single step (the fixed start-up of one process:
#      JVM, engine, client warm-up, broker and aggregator, report wait), then
#   2. the sweep, and prints: the sweep's total wall time; the sum of its steps' wall clocks (the
#      reports' wall_clock_ms, T0 to the last request's end); the difference (the overhead beyond the
#      runs) in total and per step; and the same for the single run, so that
#      (sweep overhead - single-run overhead) / (steps - 1) is what each further step costs: preparing
#      the plan, delivering its events, the aggregator's report, the report wait and the file. Start-up
#      paid once shows as a per-step overhead far below the single run's.
# Env: STEPS (1:10:+1), REQUESTS (20), MAX_TOKENS (16), CTX (256), SIM_SLOTS (64), CLIENT_WARMUP (5s),
#      REPORT_TIMEOUT (120, seconds), JAVA_OPTS (extra JVM options), OUT (output directory, default a temp
#      dir, removed at the end). A sweep that exits non-zero (e.g. no curve) is reported, and the numbers
#      are still computed from the step reports that were written.
# Needs java 17+ and python3 (to read the reports). Every process it starts ends before it returns.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jar="${CAPSTREAM_JAR:-$here/cli/target/capstream.jar}"
[[ -f $jar ]] || (cd "$here" && ./capstream --version >/dev/null)
steps=${STEPS:-1:10:+1}
requests=${REQUESTS:-20}
max_tokens=${MAX_TOKENS:-16}
ctx=${CTX:-256}
slots=${SIM_SLOTS:-64}
warmup=${CLIENT_WARMUP:-5s}
out=${OUT:-$(mktemp -d -t capstream-sweep-bench.XXXXXX)}
keep=${OUT:+1}
mkdir -p "$out"
[[ -n $keep ]] || trap 'rm -rf "$out"' EXIT
workload=(--requests "$requests" --ctx-tokens "$ctx" --max-tokens "$max_tokens" --shared-prefix-tokens 0
  --sim-slots "$slots" --client-warmup "$warmup")
java_run() {
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} -Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.capstream -jar "$jar" "$@"
}
now_ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }

echo "single run: ${workload[*]} --concurrency 1"
t0=$(now_ms)
java_run run "${workload[@]}" --concurrency 1 --run-id bench-single --output "$out/single.json" \
  >"$out/single.out" 2>"$out/single.err"
t1=$(now_ms)

echo "sweep: --concurrency $steps ${workload[*]}"
t2=$(now_ms)
code=0
java_run sweep --concurrency "$steps" "${workload[@]}" --sweep-id bench-sweep --output-dir "$out/sweep" \
  --report-timeout "${REPORT_TIMEOUT:-120}" >"$out/sweep.out" 2>"$out/sweep.err" || code=$?
if [[ $code != 0 ]]; then
  echo "warning: the sweep exited $code; its last lines:"; tail -5 "$out/sweep.err"
fi
t3=$(now_ms)

python3 - "$out" "$((t1 - t0))" "$((t3 - t2))" <<'PY'
import glob, json, os, sys
out, single_ms, sweep_ms = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
single = json.load(open(os.path.join(out, "single.json")))["wall_clock_ms"]
steps = sorted(glob.glob(os.path.join(out, "sweep", "bench-sweep-s*.json")),
               key=lambda f: int(f.rsplit("-s", 1)[1].split(".")[0]))
walls = [json.load(open(f))["wall_clock_ms"] for f in steps]
n = len(walls)
run_sum = sum(walls)
single_over = single_ms - single
sweep_over = sweep_ms - run_sum
print()
print(f"single run : total {single_ms / 1000:8.2f} s, run wall clock {single / 1000:8.2f} s,"
      f" overhead {single_over / 1000:8.2f} s")
print(f"sweep      : total {sweep_ms / 1000:8.2f} s, sum of {n} step wall clocks {run_sum / 1000:8.2f} s,"
      f" overhead {sweep_over / 1000:8.2f} s ({sweep_over / max(n, 1) / 1000:.2f} s per step)")
if n > 1:
    print(f"per further step: (sweep overhead - single-run overhead) / {n - 1} ="
          f" {(sweep_over - single_over) / (n - 1) / 1000:.3f} s")
print("steps (wall clock s): " + ", ".join(f"{w / 1000:.2f}" for w in walls))
PY
grep -h "max load\|sweep written" "$out/sweep.out" || true
