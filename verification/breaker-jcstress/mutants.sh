#!/usr/bin/env bash
# Proves the jcstress tests can fail: breaks the engine on purpose, one mutant at a time, and checks
# that the jcstress test meant to catch it reports a FORBIDDEN outcome.
#
# Each mutant is a copy of breaker-core/src/main/java with one condition changed, compiled into a
# temporary directory that goes on the class path before target/jcstress.jar (jcstress's forked VMs
# inherit that class path), so the sources in the repository are never touched.
#
# Usage (from the repository root, after ./mvnw -pl verification/breaker-jcstress -am package):
#   verification/breaker-jcstress/mutants.sh                 # every mutant
#   verification/breaker-jcstress/mutants.sh plain-set-transition stale-cancel
# JCSTRESS_OPTS overrides the jcstress options (default: the mode the build runs); DRY_RUN=1 only
# applies, shows and compiles each mutant.
# Exit status: 0 if every mutant was caught, 1 if one survived.
set -euo pipefail
cd "$(dirname "$0")/../.."

JAR=$PWD/verification/breaker-jcstress/target/jcstress.jar
[[ -f $JAR ]] || { echo "missing $JAR: run ./mvnw -pl verification/breaker-jcstress -am package first" >&2; exit 2; }
OPTS=${JCSTRESS_OPTS:--m quick -iters 1 -time 200 -sc false -pth false -jvmArgs -XX:+UseSerialGC}
CB=io/breaker/CircuitBreaker.java
TR=io/breaker/Transitions.java
TW=io/breaker/TimeWindow.java
PH=io/breaker/Phase.java
RC=io/breaker/RejectionCounter.java
LS=io/breaker/Listeners.java
CW=io/breaker/CountWindow.java

# name # file # test regexp # perl substitution s~pattern~replacement~ (applied with -0: the file is one string)
MUTANTS=(
  'plain-set-transition#'$TR'#TripOnceTest|ForceOpenVsTripTest|ForceClosedVsProbeTest#s~\Qif (!PHASE.compareAndSet(breaker, expected, next)) {\E~PHASE.setVolatile(breaker, next); if (false) {~'
  'no-episode-check-in-probe#'$PH'#LateClosedCallDuringProbeTest#s~\Qreturn (permit & EPISODE_MASK) == episode && current != null\E~return current != null~'
  'no-generation-check-in-return#'$PH'#StaleProbeCancelTest#s~(\Q(permit & EPISODE_MASK) != episode\E\s*\Q|| current == null\E)\s*\Q|| (int) permit != current.generation\E~$1~'
  'no-episode-check-in-record#'$CB'#LateCallNewWindowTest#s~\Qif (permit != current.episode) {\E~if (false) {~'
  'plain-set-probe-permit#'$PH'#ProbeLimitTest#s~(\Q// One CAS over the whole record\E[^\n]*\n\s*)\Qif (PROBES.compareAndSet(this, current, next)) {\E~$1PROBES.setVolatile(this, next); if (true) {~'
  'plain-set-probe-return#'$PH'#CancelledProbeTest#s~(\Qcurrent.issued - 1,\E\s*\Qcurrent.succeeded,\E\s*\Qcurrent.leaseDeadline,\E\s*\Qcurrent.fleetLeased,\E\s*\Qcurrent.fleetLeaseEnd);\E\s*)\Qif (PROBES.compareAndSet(this, current, next)) {\E~$1PROBES.setVolatile(this, next); if (true) {~'
  'ignored-keeps-permit#'$CB'#IgnoredProbeTest#s~\Q            releasePermit(permit);\E\n(\s*listeners\.callRecorded\(this, CallOutcome.IGNORED)~$1~'
  'winner-tells-at-once#'$LS'#ListenerOrderTest#s~(\Qleft.successor = next;\E\n\s*\}\n)(\s*)\QtellInOrder(breaker);\E~$1$2if (next.arrival != null) { tell(breaker, next.arrival); }~'
  'plain-set-slot-claim#'$RC'#RejectionCounterTest#s~\Q!LONGS.compareAndSet(table, at, FREE, thread)\E~!claimPlainly(at, thread)~ or die "no claim\n"; s~(\n\s*/\*\* Rejections counted so far)~\n    private boolean claimPlainly(int at, long thread) { LONGS.setOpaque(slots, at, thread); return true; }\n$1~ or die "no sum\n"'
  'cells-read-not-taken#'$CW'#CountWindowCellsReadingTest|CountWindowCellFullTest#s~\Qif (LONGS.compareAndSet(table, cell + TAKEN, taken, counted)) {\E~if (true) {~'
  'plain-set-cell-claim#'$CW'#CountWindowCellOwnerTest#s~\QLONGS.compareAndSet(table, cell + OWNER, FREE, thread)\E~claimPlainly(table, cell, thread)~ or die "no claim\n"; s~(\n\s*/\*\*\n\s*\* The cells, created)~\n    private static boolean claimPlainly(long[] table, int cell, long thread) { LONGS.setOpaque(table, cell + OWNER, thread); return true; }\n$1~ or die "no place\n"'
  'cells-start-drops-success#'$CW'#CountWindowCellsStartTest#s~\Qtable = startCells();\E~startCells(); return false;~'
  'calls-leave-before-failures#'$TW'#TimeWindowDrainTest|TimeWindowLateReaderTest#s~(\s*LONGS\.getAndSet\(bad, bucket, 0L\);)(\s*long drainedCalls = \(long\) LONGS\.getAndSet\(calls, bucket, 0L\);)~$2$1~'
)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The copy compiles against breaker-core's compile-only dependencies (JSpecify's annotations), which
# jcstress.jar does not hold: Maven resolves them once.
./mvnw -B -q -pl breaker-core dependency:build-classpath -Dmdep.includeScope=compile \
  -Dmdep.outputFile="$tmp/core-classpath" >/dev/null
CORE_CP=$(cat "$tmp/core-classpath")
wanted=("$@")
summary=()
survived=0

for entry in "${MUTANTS[@]}"; do
  IFS='#' read -r name file tests subst <<<"$entry"
  if ((${#wanted[@]})) && [[ " ${wanted[*]} " != *" $name "* ]]; then
    continue
  fi
  work="$tmp/$name"
  mkdir -p "$work/classes"
  cp -r breaker-core/src/main/java "$work/src"
  before=$(md5sum "$work/src/$file")
  perl -0pi -e "$subst" "$work/src/$file"
  if [[ $(md5sum "$work/src/$file") == "$before" ]]; then
    echo "mutant $name: the substitution matched nothing in $file (the engine changed?)" >&2
    exit 2
  fi
  echo "=== mutant $name ($file), tests $tests"
  diff -U1 "breaker-core/src/main/java/$file" "$work/src/$file" | sed -n '4,$p' | head -20 || true
  javac -nowarn -cp "$CORE_CP" -d "$work/classes" $(find "$work/src" -name '*.java')
  if [[ ${DRY_RUN:-} == 1 ]]; then
    continue
  fi
  log="$tmp/$name.log"
  start=$(date +%s)
  set +e
  # shellcheck disable=SC2086
  (cd "$work" && java -cp "$work/classes:$JAR" org.openjdk.jcstress.Main $OPTS -t "$tests" -r "$work/report") \
    >"$log" 2>&1
  status=$?
  set -e
  took=$(( $(date +%s) - start ))
  forbidden=$(grep -c 'Observed forbidden state' "$log" || true)
  if ((status != 0)) && ((forbidden > 0)); then
    verdict=caught
  else
    verdict=SURVIVED
    survived=1
  fi
  echo "--- $verdict in ${took}s (exit $status, $forbidden forbidden observations); what jcstress reported:"
  sed -n '/Failed tests:/,/Error tests:/p' "$log" | grep -E 'FAILED|Forbidden|Acceptable|Interesting' | sort -u | head -20 || true
  summary+=("$(printf '%-32s %-9s %4ss  %s' "$name" "$verdict" "$took" "$tests")")
done

echo
echo "mutant                           verdict     time  tests"
printf '%s\n' "${summary[@]}"
exit $survived
