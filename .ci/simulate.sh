#!/usr/bin/env bash
# The protocol simulator on its own (plugins/replicator-wal/src/test/java/dev/cellgate/sim):
#   bash .ci/simulate.sh [SEEDS] [maven args...]   SEEDS seeds of the correct protocol (default 10000),
#                                                  then the hunt for every broken variant
#   bash .ci/simulate.sh --seed N [VARIANT] [maven args...]
#                                                  replays one seed exactly, with its trace
# SIM_SECONDS bounds the correct run (default: no bound when SEEDS is given, CI's 170 s otherwise).
# Ends with one line: "simulator: N seeds, V violations, K of K broken variants caught".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"

props=()
tests='SimulatorTest,BrokenVariantsTest'
if [[ "${1:-}" == "--seed" ]]; then
  props+=("-Dsim.seed=${2:?--seed needs a seed number}")
  shift 2
  if [[ -n "${1:-}" && "$1" != -* ]]; then
    props+=("-Dsim.variant=$1")
    shift
  fi
  tests='SimulatorTest'
elif [[ -n "${1:-}" && "$1" != -* ]]; then
  props+=("-Dsim.seeds=$1" "-Dsim.seconds=${SIM_SECONDS:-86400}")
  shift
elif [[ -n "${SIM_SECONDS:-}" ]]; then
  props+=("-Dsim.seconds=$SIM_SECONDS")
fi

summary=plugins/replicator-wal/target/simulator-summary.txt
rm -f "$summary"
log=$(mktemp)
status=0
# -am builds what the simulator runs (runtime-core); the test filter runs only the simulator's tests.
mvn -B -q -pl plugins/replicator-wal -am test -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false \
  "${props[@]}" "$@" >"$log" 2>&1 || status=$?
if [[ -n "${props[*]:-}" && "${props[0]}" == -Dsim.seed=* ]]; then
  cat plugins/replicator-wal/target/surefire-reports/dev.cellgate.sim.SimulatorTest-output.txt 2>/dev/null | grep -av '^simulator: ' || true
fi
if [[ ! -s "$summary" ]]; then
  tail -n 60 "$log"
  echo "simulator: did not run to its summary (maven exit $status; log above)"
  exit 1
fi
if [[ $status -ne 0 ]]; then
  grep -aE 'FAILED|must be caught|Expecting' "$log" | head -n 20 || true
fi
rm -f "$log"
cat "$summary"
exit "$status"
