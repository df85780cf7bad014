#!/usr/bin/env bash
# Turns a jcstress result blob into the Markdown table of docs/jcstress.md: per test, every outcome
# seen (and every FORBIDDEN one, seen or not), its samples across all configurations, and the verdict.
#
# Usage: verification/breaker-jcstress/summarize.sh verification/breaker-jcstress/target/jcstress-results-<date>.bin.gz
set -euo pipefail
cd "$(dirname "$0")/../.."
blob=$1
jar=verification/breaker-jcstress/target/jcstress.jar
report=$(mktemp -d)
trap 'rm -rf "$report"' EXIT

java -jar "$jar" -p "$blob" -v -r "$report" 2>&1 | sed -n '/RUN RESULTS/,$p' | awk '
  /\[(OK|FAILED|ERROR)\] io\.breaker\./ {
    verdict = ($0 ~ /\[OK\]/) ? "passed" : "FAILED"
    test = $NF; sub(/^io\.breaker\.(jcstress\.)?/, "", test)
    next
  }
  /RESULT +SAMPLES +FREQ +EXPECT/ { inTable = 1; next }
  inTable && NF == 0 { inTable = 0; next }
  inTable {
    # RESULT may hold spaces: the columns after it are SAMPLES FREQ EXPECT DESCRIPTION...
    line = $0
    if (!match(line, /  [0-9][0-9,]* +[<0-9.]+% +(Acceptable|Forbidden|Interesting|Unknown)/)) next
    result = substr(line, 1, RSTART - 1); gsub(/^ +| +$/, "", result)
    split(substr(line, RSTART), cols, / +/)
    samples = cols[2]; expect = cols[4]
    if (samples == "0" && expect != "Forbidden") next
    printf "| %s | `%s` | %s | %s | %s |\n", test, result, samples, expect, verdict
  }
'
