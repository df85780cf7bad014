#!/usr/bin/env bash
# Not slower than an older build: the Boot 3 starter's annotation benchmark, old jar against new jar,
# run alternately on the same machine, as recorded in docs/benchmarks.md ("The annotation").
# The old jar is breaker-benchmarks' benchmarks.jar built from OLD_REF (default 9975ae4^, the commit
# before the Boot 4 split) in a separate worktree, OLD_TREE (default: wt-annot-old next to this
# repository's directory); it is built once, then reused. The new jar is this tree's
# verification/breaker-benchmarks/target/benchmarks.jar (build it first:
# ./mvnw -B -q -pl verification/breaker-benchmarks -am package -DskipTests).
# Each round runs both jars, one after the other, the first jar alternating between rounds:
#   java -jar <jar> -f 1 -wi 10 -w 1s -i 5 -r 1s -foe true \
#     'io.breaker.benchmarks.spring.AnnotatedCall.(advisorFloor|circuitProtectedClosed|circuitProtectedOpen)$'
# then IterationMedians prints, per benchmark and jar, the median and the fastest of all measured
# iterations, each round's median, new / old, and whether new is not slower (computed). About 5 minutes
# for 3 rounds.
# Usage (from the repository root): verification/breaker-benchmarks/run-annotation-ab.sh [output-dir] [rounds]
# AB_JMH_OPTIONS replaces the run-length options, for a smoke test only.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
old_ref=${OLD_REF:-9975ae4^}
old_tree=${OLD_TREE:-$(dirname "$root")/wt-annot-old}
out=${1:-breaker-benchmarks/target/annotation-ab}
rounds=${2:-3}
options=${AB_JMH_OPTIONS:--f 1 -wi 10 -w 1s -i 5 -r 1s}
pattern='io.breaker.benchmarks.spring.AnnotatedCall.(advisorFloor|circuitProtectedClosed|circuitProtectedOpen)$'
new_jar=verification/breaker-benchmarks/target/benchmarks.jar
# The module moved to verification/ in later commits: the old tree has it in one place or the other.
old_module=verification/breaker-benchmarks
old_jar=$old_tree/$old_module/target/benchmarks.jar

[ -f "$new_jar" ] || { echo "missing $new_jar: build breaker-benchmarks first" >&2; exit 1; }
old_commit=$(git rev-parse --verify "$old_ref^{commit}")
if [ ! -d "$old_tree" ]; then
  git worktree add --detach "$old_tree" "$old_commit"
fi
if [ "$(git -C "$old_tree" rev-parse HEAD)" != "$old_commit" ]; then
  echo "$old_tree is not at $old_ref ($old_commit); remove it (git worktree remove) or set OLD_TREE" >&2
  exit 1
fi
if [ ! -d "$old_tree/$old_module" ]; then
  old_module=breaker-benchmarks
  old_jar=$old_tree/$old_module/target/benchmarks.jar
fi
if [ ! -f "$old_jar" ]; then
  (cd "$old_tree" && ./mvnw -B -q -pl "$old_module" -am package -DskipTests)
fi

mkdir -p "$out"
rm -f "$out"/old-*.txt "$out"/new-*.txt
{
  echo "date: $(date -u +%FT%TZ)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) CPUs available"
  echo "java: $(java -version 2>&1 | head -2 | tail -1)"
  echo "old: $old_ref = $(git log -1 --format='%h %s' "$old_commit" | cut -c1-100)"
  echo "new: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . && echo '' || echo ' with uncommitted changes')"
  echo "jmh options: $options -foe true, $rounds rounds"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/machine.txt"

run() {   # name jar round
  echo "== round $3: $1 (load $(cut -d' ' -f1 /proc/loadavg))"
  # shellcheck disable=SC2086  # the options are words
  java -jar "$2" $options -foe true "$pattern" > "$out/$1-$3.txt"
  grep -E ' avgt ' "$out/$1-$3.txt" || true
}

logs=()
for round in $(seq 1 "$rounds"); do
  if (( round % 2 == 1 )); then
    run old "$old_jar" "$round"; run new "$new_jar" "$round"
  else
    run new "$new_jar" "$round"; run old "$old_jar" "$round"
  fi
  logs+=("$out/old-$round.txt" "$out/new-$round.txt")
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/machine.txt"

java -cp "$new_jar" io.breaker.benchmarks.IterationMedians "${logs[@]}" | tee "$out/ab.md"
