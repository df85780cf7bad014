#!/usr/bin/env bash
# Runs the engine suite once, as recorded in docs/benchmarks.md: the JMH benchmarks (ours against
# resilience4j and Failsafe, on 1, 2 and 4 threads, with the gc profiler), the footprint and
# clock-read programs, and the results table. The load average is sampled every 30 s meanwhile.
# Build first: ./mvnw -o -q -pl verification/breaker-benchmarks -am package -DskipTests
# Usage (from the repository root): verification/breaker-benchmarks/run-engine-suite.sh [output-dir]
set -euo pipefail

jar=verification/breaker-benchmarks/target/benchmarks.jar
out=${1:-breaker-benchmarks/target/engine-results}
mkdir -p "$out"
[ -f "$jar" ] || { echo "missing $jar: build the module first" >&2; exit 1; }

{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) CPUs available"
  echo "memory: $(free -m | awk '/Mem:/ {print $2}') MB"
  echo "kernel: $(uname -sr), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
  echo "java: $(java -version 2>&1 | head -2 | tail -1)"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

( while true; do echo "$(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)"; sleep 30; done ) > "$out/loadavg.txt" &
sampler=$!
trap 'kill $sampler 2>/dev/null' EXIT

java -jar "$jar" -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc -rf csv -rff "$out/jmh.csv" 'io.breaker.benchmarks.engine' \
  | tee "$out/jmh.txt"
echo "load after JMH: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"

java -cp "$jar" io.breaker.benchmarks.engine.Footprint | tee "$out/footprint.txt"
java -cp "$jar" io.breaker.benchmarks.engine.ClockReads | tee "$out/clock-reads.txt"
java -cp "$jar" io.breaker.benchmarks.ResultsTable "$out/jmh.csv" | tee "$out/table.md"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"
