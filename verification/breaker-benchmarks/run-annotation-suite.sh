#!/usr/bin/env bash
# Runs the annotation benchmarks on both Spring Boot lines in one invocation, as recorded in
# docs/benchmarks.md ("The annotation"): @CircuitProtected against resilience4j's @CircuitBreaker, CLOSED
# and OPEN, and the floors, from breaker-benchmarks (Boot 3.5, resilience4j-spring-boot3) and
# the same module built with -Pboot4 (Boot 4.0, resilience4j-spring-boot4), with identical JMH options and the gc
# profiler. The two jars alternate benchmark by benchmark (each benchmark runs in its own JVM fork
# anyway), and which jar goes first alternates too, so that a change of load during the run falls on
# both lines alike. Each benchmark runs on 1, 2 and 4 threads (JMH -t; every thread calls the same
# proxy, so they share its breaker, as a web server's threads do). Writes boot3.csv and boot4.csv, then
# table.md (AnnotationTable: both lines side by side, per thread count, goals and verdicts computed from
# the CSVs). About 20 minutes.
# Warm-up is long (15 x 1 s) because resilience4j's path takes 6-10 s to reach compiled code on a loaded
# 2-core machine; with 5 warm-up seconds it was still falling.
# Build first: ./mvnw -B -q -pl verification/breaker-benchmarks -am package -DskipTests && ./mvnw -B -q -pl verification/breaker-benchmarks -am -Pboot4 package -DskipTests
# Usage (from the repository root): verification/breaker-benchmarks/run-annotation-suite.sh [output-dir]
# ANNOTATION_JMH_OPTIONS replaces the run-length options, for a smoke test only
# (e.g. ANNOTATION_JMH_OPTIONS='-f 1 -wi 1 -i 1 -w 200ms -r 200ms'); results so made are not results.
# ANNOTATION_THREADS replaces the thread counts (default "1 2 4"; the 1-thread rows alone took 6 minutes).
set -euo pipefail

boot3_jar=verification/breaker-benchmarks/target/benchmarks.jar
boot4_jar=verification/breaker-benchmarks/target/boot4/benchmarks-boot4.jar
out=${1:-breaker-benchmarks/target/annotation-results}
options=${ANNOTATION_JMH_OPTIONS:--f 1 -wi 15 -w 1s -i 5 -r 1s}
benchmarks=(bare advisorFloor executionAspectFloor aspectFloor circuitProtectedClosed circuitProtectedOpen
            r4jCircuitBreakerClosed r4jCircuitBreakerOpen)
read -r -a thread_counts <<< "${ANNOTATION_THREADS:-1 2 4}"

for jar in "$boot3_jar" "$boot4_jar"; do
  [ -f "$jar" ] || { echo "missing $jar: build both modules first" >&2; exit 1; }
done
mkdir -p "$out/parts"
rm -f "$out"/parts/*.csv "$out"/parts/*.txt

{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) CPUs available"
  echo "java: $(java -version 2>&1 | head -2 | tail -1)"
  echo "boot3: $(java -cp "$boot3_jar" io.breaker.benchmarks.spring.LineVersions)"
  echo "boot4: $(java -cp "$boot4_jar" io.breaker.benchmarks.spring.LineVersions)"
  echo "jmh options: $options -prof gc -foe true, threads: ${thread_counts[*]}"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

run() {   # line jar benchmark threads
  local part="$out/parts/$1-$3-t$4"
  echo "== $1 $3, $4 thread(s) (load $(cut -d' ' -f1 /proc/loadavg))"
  # shellcheck disable=SC2086  # the options are words
  java -jar "$2" $options -t "$4" -prof gc -foe true -rf csv -rff "$part.csv" \
    "io.breaker.benchmarks.spring.AnnotatedCall.$3\$" > "$part.txt"
  grep -E ' avgt ' "$part.txt" | grep -v ':gc\.' || true
}

i=0
for t in "${thread_counts[@]}"; do
  for b in "${benchmarks[@]}"; do
    if (( i % 2 == 0 )); then
      run boot3 "$boot3_jar" "$b" "$t"; run boot4 "$boot4_jar" "$b" "$t"
    else
      run boot4 "$boot4_jar" "$b" "$t"; run boot3 "$boot3_jar" "$b" "$t"
    fi
    i=$((i + 1))
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"

# One CSV per line: the header once, then every benchmark's rows.
for line in boot3 boot4; do
  head -1 "$out/parts/$line-${benchmarks[0]}-t${thread_counts[0]}.csv" > "$out/$line.csv"
  for t in "${thread_counts[@]}"; do
    for b in "${benchmarks[@]}"; do tail -n +2 "$out/parts/$line-$b-t$t.csv" >> "$out/$line.csv"; done
  done
done

java -cp "$boot3_jar" io.breaker.benchmarks.AnnotationTable \
  "Boot 3=$out/boot3.csv" "Boot 4=$out/boot4.csv" | tee "$out/table.md"
