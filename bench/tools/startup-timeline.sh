#!/usr/bin/env bash
# Where a node's start goes (issue 22): starts a node N times, the way bench/lib/cold.sh does (java
# -jar gateway.jar, the bench Worker already in the bucket, an empty node work dir each time), and
# prints one JSON line per start: the spawn -> first good /hello milliseconds measured from outside
# and the node's own `node.startup` line. Then the per-phase medians (startup_timeline.py).
#
#   bash bench/tools/startup-timeline.sh file:///tmp/st-bucket [N]
#   (source .ci/work/s3-server/s3.env first) bash bench/tools/startup-timeline.sh "s3://$S3_BUCKET/st-$(date +%s)" [N]
#
# PORT (18480) and CG_JAVA_OPTS (-Xmx2g, as the bench) can be set; LAUNCHER=bin starts the node with
# gateway/bin/cellgate (one JVM on the JIT) instead of java -jar (which relaunches itself). Run it on a quiet machine; with
# QUIET_LOCK=FILE each start first waits while FILE exists (another measurement holds the machine).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BUCKET=$1
N=${2:-5}
PORT=${PORT:-18480}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
WORK=$(mktemp -d /tmp/startup-timeline.XXXXXX)
OUT=${OUT:-$WORK/starts.jsonl}
quiet() { while [ -n "${QUIET_LOCK:-}" ] && [ -e "$QUIET_LOCK" ]; do sleep 10; done; }
quiet
deploy-tool/deploy-tool push bench/worker --bucket "$BUCKET" --progress off >"$WORK/deploy.log" 2>&1 \
  || { cat "$WORK/deploy.log" >&2; exit 1; }
for i in $(seq "$N"); do
  rm -rf "$WORK/node"
  quiet
  log=$WORK/node-$i.log
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  env CELLD_BUCKET="$BUCKET" CELLD_ADDR="127.0.0.1:$PORT" CELLD_INTERNAL_ADDR="127.0.0.1:$((PORT + 1))" \
    CELLD_WATCH="$WORK/node" CELLD_LOG_FORMAT=json CELLGATE_JAVA_OPTS="${CG_JAVA_OPTS:--Xmx2g}" \
    $(if [ "${LAUNCHER:-jar}" = bin ]; then echo gateway/bin/cellgate; else echo "$JAVA ${CG_JAVA_OPTS:--Xmx2g} -jar gateway/target/gateway.jar"; fi) >"$log" 2>&1 &
  pid=$!
  ms=$(python3 bench/tools/probe.py ready "http://127.0.0.1:$PORT/hello" hello "$t0" "$pid" 300) \
    || { tail -20 "$log" >&2; exit 1; }
  for _ in $(seq 100); do grep -q '"event":"node.startup"' "$log" && break; sleep 0.05; done
  line=$(grep -m1 '"event":"node.startup"' "$log" || echo null)
  echo "{\"start\": $i, \"hello_ms\": $ms, \"startup\": $line}" | tee -a "$OUT"
  kill -TERM "$pid"
  wait "$pid" || true
  sleep 1
done
python3 bench/tools/startup_timeline.py "$OUT"
echo "starts and logs: $WORK" >&2
