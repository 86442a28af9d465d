#!/usr/bin/env bash
# A cell's first request on the peer that takes it over from a node stopping with a handoff
# (issue 22: p50 <= 10 ms on the file bucket, <= 30 ms on loopback S3), with warm handoff on
# (CELLD_HANDOFF_WARM_MS, default) and off (0), side by side in one run.
#
#   bash bench/handoff/run.sh [--bucket URL] [--cells N] [--rounds R]
#   (loopback S3: bash .ci/s3-server.sh start; source .ci/work/s3-server/s3.env; --bucket "s3://$S3_BUCKET/ho-$(date +%s)")
#
# Each round and variant: a fresh pair of nodes (gateway/bin/cellgate, the bench Worker already
# in the bucket), N counters written through node A (so A owns them) and read once more there,
# a read of N never-seen counters through B (B's own warm-up), then SIGTERM to A; once A has
# exited, one sequential read of each counter through B (the handed-off first request), then the
# same reads again (B warm). Prints one line per measure; the node logs stay in the work dir.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BUCKET=file:///tmp/handoff-bench-$$
CELLS=200
ROUNDS=2
while [ $# -gt 0 ]; do
  case $1 in
    --bucket) BUCKET=$2; shift 2 ;;
    --cells) CELLS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH=$JAVA_HOME/bin:$PATH
W=$(mktemp -d /tmp/handoff-bench.XXXXXX)
deploy-tool/deploy-tool push bench/worker --bucket "$BUCKET" --progress off >"$W/deploy.log" 2>&1 || { cat "$W/deploy.log" >&2; exit 1; }
echo "bucket $BUCKET, $CELLS cells, $ROUNDS rounds, commit $(git rev-parse --short HEAD), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"

start() {  # name port [env...]
  local name=$1 port=$2; shift 2
  env CELLD_BUCKET="$BUCKET" CELLD_ADDR="127.0.0.1:$port" CELLD_INTERNAL_ADDR="127.0.0.1:$((port + 1))" CELLD_WATCH="$W/$name" \
    CELLD_LOG_FORMAT=json CELLD_NODE="$name" CELLD_TTL_MS=10000 "$@" CELLGATE_JAVA_OPTS=-Xmx1g gateway/bin/cellgate >"$W/$name.log" 2>&1 &
  echo $! >"$W/$name.pid"
  python3 bench/tools/probe.py ready "http://127.0.0.1:$port/hello" hello "$(date +%s%N)" $! 180 >/dev/null
}
paths() {  # file prefix [query]
  for i in $(seq 0 $((CELLS - 1))); do echo "/counter/$2$i${3:+?$3}"; done >"$1"
}
for r in $(seq "$ROUNDS"); do
  for variant in warm cold; do
    tag=$variant-$r
    warm_ms=5000; [ "$variant" = cold ] && warm_ms=0
    start "a-$tag" 18600 CELLD_HANDOFF_WARM_MS=$warm_ms
    start "b-$tag" 18610
    paths "$W/$tag.put" "h$$-$tag-"; paths "$W/$tag.get" "h$$-$tag-" op=get; paths "$W/$tag.new" "n$$-$tag-" op=get
    python3 bench/tools/probe.py stats http://127.0.0.1:18600 "$W/$tag.put" >/dev/null
    python3 bench/tools/probe.py stats http://127.0.0.1:18600 "$W/$tag.get" >/dev/null
    python3 bench/tools/probe.py stats http://127.0.0.1:18610 "$W/$tag.new" >/dev/null
    t0=$(date +%s%N); kill -TERM "$(cat "$W/a-$tag.pid")"
    while kill -0 "$(cat "$W/a-$tag.pid")" 2>/dev/null; do sleep 0.02; done
    stop_ms=$((($(date +%s%N) - t0) / 1000000))
    drained=$(grep -m1 '"event":"shutdown.drained"' "$W/a-$tag.log" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("released=%s warmed=%s" % (d["released"], d.get("warmed")))')
    first=$(python3 bench/tools/probe.py stats http://127.0.0.1:18610 "$W/$tag.get")
    again=$(python3 bench/tools/probe.py stats http://127.0.0.1:18610 "$W/$tag.get")
    echo "$tag: stop ${stop_ms} ms ($drained) | handed-off first read: $first"
    echo "$tag:                         | same cells again:       $again"
    kill -TERM "$(cat "$W/b-$tag.pid")"; wait "$(cat "$W/b-$tag.pid")" 2>/dev/null || true
  done
done
echo "logs: $W"
