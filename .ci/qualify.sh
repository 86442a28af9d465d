#!/usr/bin/env bash
# .ci/qualify.sh — the live qualification matrix (issue K.4), with an evidence summary.
#
# Starts what it needs itself: the real S3-compatible server (.ci/s3-server.sh), a build
# (mvn package, never install), then real 3-node fleets whose nodes reach the bucket through
# fault-injecting proxies, one scenario after another:
#
#   fault proxy self-test     FaultProxyIT: every injected fault does what it claims
#   ambiguous-outcomes        answers dropped after the write was applied, resets, 503s, evictions
#   throttling-429            sustained 429 on the owner: its bucket request rate stays bounded
#   sigkill-wiped-disk        SIGKILL of the owner + its local disk deleted + restart
#   sigstop-owner             SIGSTOP of the owner past its lease TTL, SIGCONT: it self-fences
#   bucket-cut-off            the owner's bucket stops answering: it self-fences
#   rolling-restart           SIGTERM + restart of every node in turn, under load
#
# Every scenario checks zero lost acknowledged writes and zero double owners (from the nodes'
# logs and from the ownership writes the bucket applied), plus its own checks.
#
# Writes docs/qualification.json (every scenario's counts and checks, the date, the machine, the
# commit) and the "Last result" section of docs/qualification.md. Exits non-zero when a scenario
# failed or left no evidence.
#
# Environment (all optional):
#   QUALIFY_SECONDS  length of each scenario's load/fault phase   (default 60)
#   QUALIFY_CYCLES   repetitions of kill/stop/cut-off               (default 2)
#   QUALIFY_ROUNDS   rolling-restart rounds (each restarts all 3)   (default 1)
#   QUALIFY_TTL_MS   the nodes' lease TTL                           (default 20000)
#   QUALIFY_ONLY     comma-separated test classes to run instead of the whole matrix
#   QUALIFY_OUT      where the evidence goes                        (default <repo>/docs)
#   S3_PORT, S3_FS_PORT, AZURITE_PORT   ports of the S3 server (see .ci/s3-server.sh)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
SECONDS_PER=${QUALIFY_SECONDS:-60}
CYCLES=${QUALIFY_CYCLES:-2}
ROUNDS=${QUALIFY_ROUNDS:-1}
TTL_MS=${QUALIFY_TTL_MS:-20000}
MATRIX=FaultProxyIT,AmbiguousOutcomesScenario,Throttle429Scenario,SigkillWipeScenario,FenceScenarios,RollingRestartScenario
TESTS=${QUALIFY_ONLY:-$MATRIX}
OUT=${QUALIFY_OUT:-$REPO/docs}
WORK=$REPO/.ci/work/qualify
RAW=$WORK/evidence
LOG=$WORK/qualify.log
t0=$(date +%s)

say() { echo "[qualify] $*" >&2; }

command -v node >/dev/null || { say "node is required (it is also what the S3 server runs on)"; exit 1; }
rm -rf "$RAW" && mkdir -p "$RAW" "$OUT"
: >"$LOG"

say "starting the S3 server"
bash .ci/s3-server.sh start >>"$LOG" 2>&1 || { tail -30 "$LOG" >&2; say "the S3 server did not start"; exit 1; }
trap 'bash .ci/s3-server.sh stop >>"$LOG" 2>&1 || true' EXIT
set -a
# shellcheck disable=SC1091
source .ci/work/s3-server/s3.env
set +a
export QUALIFY=true # a missing S3 setting fails a scenario instead of skipping it

say "building (mvn package -DskipTests)"
mvn -B -q package -DskipTests >>"$LOG" 2>&1 || { tail -40 "$LOG" >&2; say "build failed"; exit 1; }

say "running $TESTS (phases of ${SECONDS_PER} s, ${CYCLES} cycles, ${ROUNDS} rolling rounds, lease TTL ${TTL_MS} ms); log: $LOG"
rm -rf gateway/target/failsafe-reports
set +e
mvn -B verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dit.test="$TESTS" -Dqualify.seconds="$SECONDS_PER" -Dqualify.cycles="$CYCLES" -Dqualify.rounds="$ROUNDS" -Dqualify.ttl.ms="$TTL_MS" \
  -Dqualify.out="$RAW" >>"$LOG" 2>&1
mvn_rc=$?
set -e
grep -E "Tests run:|FAIL|evidence " "$LOG" | grep -v "^\[INFO\] *$" | tail -40 >&2 || true

commit=$(git rev-parse HEAD)
# (grep -v exits 1 when it keeps no line, i.e. on a clean tree: that must not end the script under pipefail)
dirty=$( { git status --porcelain --untracked-files=no | grep -v '^.. docs/qualification\.' || true; } | wc -l)
set +e
node .ci/qualify-summary.mjs --raw "$RAW" --reports gateway/target/failsafe-reports --tests "$TESTS" \
  --out "$OUT" --commit "$commit" --dirty "$dirty" --mvn-rc "$mvn_rc" \
  --settings "seconds=$SECONDS_PER cycles=$CYCLES rounds=$ROUNDS ttl_ms=$TTL_MS" --duration "$(($(date +%s) - t0))"
rc=$?
set -e
say "evidence: $OUT/qualification.json, $OUT/qualification.md ($(($(date +%s) - t0)) s)"
exit $rc
