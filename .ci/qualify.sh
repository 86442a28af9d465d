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
#   bucket-cut-off            the owner's bucket stops answering: it self-fences (degrades, rejoins)
#   bucket-stall              the bucket stops answering EVERY node for 2 x TTL: no process exits,
#                             stateless requests go on, cells come back once it answers
#   rolling-restart           SIGTERM + restart of every node in turn, under load
#   and three long live tests that were CI tests (their JUnit result is their evidence):
#   RollingRestartBehindProxyScenario  a rolling restart behind an L4 proxy (nginx stream)
#   ChatRollingRestartScenario         a rolling restart of examples/chat with its WebSocket clients
#   CronTriggersScenario               a * * * * * trigger on 3 nodes runs once per minute for 3 minutes
#   WorkflowBrokenMemoScenario         WorkflowFleetIT's crash with its broken variant (step results not durable): caught
#   and, before them, the OCI image: gateway/packaging/oci/build-image.sh + smoke-test.sh
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
#
# The S3 server is qualify's own: started in .ci/work/qualify/s3-server (never the shared
# .ci/work/s3-server another run or helper may be using) and stopped at the end, only it.
# .ci/s3-watch.sh watches it meanwhile (.ci/work/qualify/s3-watch.log: slow answers of Azurite,
# of S3Proxy, and of the path through both; S3Proxy's GC log is in its logs dir).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH="$JAVA_HOME/bin:$PATH"
SECONDS_PER=${QUALIFY_SECONDS:-60}
CYCLES=${QUALIFY_CYCLES:-2}
ROUNDS=${QUALIFY_ROUNDS:-1}
TTL_MS=${QUALIFY_TTL_MS:-20000}
MATRIX=FaultProxyIT,AmbiguousOutcomesScenario,Throttle429Scenario,SigkillWipeScenario,FenceScenarios,BucketStallScenario,RollingRestartScenario,RollingRestartBehindProxyScenario,ChatRollingRestartScenario,CronTriggersScenario,WorkflowBrokenMemoScenario,QueuesBrokenDeliveryScenario
TESTS=${QUALIFY_ONLY:-$MATRIX}
OUT=${QUALIFY_OUT:-$REPO/docs}
WORK=$REPO/.ci/work/qualify
RAW=$WORK/evidence
LOG=$WORK/qualify.log
export S3_SERVER_WORK=$WORK/s3-server
WATCH_LOG=$WORK/s3-watch.log
t0=$(date +%s)

say() { echo "[qualify] $*" >&2; }

command -v node >/dev/null || { say "node is required (it is also what the S3 server runs on)"; exit 1; }
rm -rf "$RAW" && mkdir -p "$RAW" "$OUT" "$S3_SERVER_WORK"
: >"$LOG"
: >"$WATCH_LOG"

watcher=
finish() {
  [ -n "$watcher" ] && kill "$watcher" 2>/dev/null
  bash .ci/s3-server.sh stop >>"$LOG" 2>&1 || true # S3_SERVER_WORK: only the server this run started
}
say "starting the S3 server (work dir $S3_SERVER_WORK)"
trap finish EXIT
bash .ci/s3-server.sh start >>"$LOG" 2>&1 || { tail -30 "$LOG" >&2; say "the S3 server did not start"; exit 1; }
set -a
# shellcheck disable=SC1091
source "$S3_SERVER_WORK/s3.env"
set +a
bash .ci/s3-watch.sh "$WATCH_LOG" &
watcher=$!
export QUALIFY=true # a missing S3 setting fails a scenario instead of skipping it

say "building (mvn package -DskipTests)"
mvn -B -q package -DskipTests >>"$LOG" 2>&1 || { tail -40 "$LOG" >&2; say "build failed"; exit 1; }

if [[ -z ${QUALIFY_ONLY:-} ]]; then
  # The OCI image (gateway/packaging/oci/README.md): built from the distribution just packaged and run
  # once as a container would run it (about a minute; too long for CI's 45-minute budget).
  say "building and smoke-testing the OCI image"
  { bash gateway/packaging/oci/build-image.sh && bash gateway/packaging/oci/smoke-test.sh; } >>"$LOG" 2>&1 \
    || { tail -40 "$LOG" >&2; say "OCI image build or smoke test failed"; exit 1; }
fi

say "running $TESTS (phases of ${SECONDS_PER} s, ${CYCLES} cycles, ${ROUNDS} rolling rounds, lease TTL ${TTL_MS} ms); log: $LOG"
rm -rf gateway/target/failsafe-reports
set +e
mvn -B verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dit.test="$TESTS" -Dqualify.seconds="$SECONDS_PER" -Dqualify.cycles="$CYCLES" -Dqualify.rounds="$ROUNDS" -Dqualify.ttl.ms="$TTL_MS" \
  -Dqualify.out="$RAW" >>"$LOG" 2>&1
mvn_rc=$?
set -e
grep -E "Tests run:|FAIL|evidence " "$LOG" | grep -v "^\[INFO\] *$" | tail -40 >&2 || true
say "slow answers of the S3 server during the run: $(grep -c ' SLOW ' "$WATCH_LOG" || true) (see $WATCH_LOG)"

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
