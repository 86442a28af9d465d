#!/usr/bin/env bash
# .ci/s3-watch.sh LOG — watches the S3 server of .ci/s3-server.sh while something runs against it
# (started and stopped by .ci/qualify.sh), so that a stall of the emulator can be placed:
#
#   azurite   an unauthenticated request straight to Azurite (its HTTP stack and event loop)
#   s3proxy   an unauthenticated request to S3Proxy (answered 403 by S3Proxy itself: its JVM)
#   s3        a signed HEAD through S3Proxy to Azurite (the whole path a node's request takes)
#
# Each is asked once a second in its own loop (a hanging one does not stop the others). A probe
# slower than 1 s or failed is logged at once; every minute each logs its slowest answer, and the
# RSS and CPU time of the three processes are logged. Environment: what s3.env and the ports of
# .ci/s3-server.sh give (S3_PORT, AZURITE_PORT, S3_SERVER_WORK).
set -uo pipefail
LOG=${1:?usage: s3-watch.sh LOG}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${S3_SERVER_WORK:-$REPO/.ci/work/s3-server}
S3_PORT=${S3_PORT:-19000}
AZURITE_PORT=${AZURITE_PORT:-19010}
BUCKET=${S3_BUCKET:-cellgate-test}

stamp() { date -u +%H:%M:%S.%3N; }

probe() {  # name, curl args...
  local name=$1 slowest=0 minute out code t
  shift
  minute=$(date +%s)
  while :; do
    out=$(curl -s -o /dev/null --max-time 180 -w '%{http_code} %{time_total}' "$@" 2>/dev/null) || true
    code=${out%% *}
    t=${out##* }
    if [ -z "$t" ] || [ "$code" = 000 ] || awk -v t="$t" 'BEGIN { exit !(t > 1.0) }'; then
      echo "$(stamp) SLOW $name http=$code took=${t:-?}s" >>"$LOG"
    fi
    slowest=$(awk -v a="$slowest" -v b="${t:-0}" 'BEGIN { print (b > a ? b : a) }')
    if [ $(($(date +%s) - minute)) -ge 60 ]; then
      echo "$(stamp) minute $name slowest=${slowest}s" >>"$LOG"
      slowest=0
      minute=$(date +%s)
    fi
    sleep 1
  done
}

procs() {
  while :; do
    for p in azurite s3proxy-azure; do
      pid=$(cat "$WORK/$p.pid" 2>/dev/null) || continue
      ps -o rss=,time=,pcpu= -p "$pid" 2>/dev/null | awk -v n="$p" -v s="$(stamp)" '{ print s " proc " n " rss_kb=" $1 " cpu_time=" $2 " pcpu=" $3 }' >>"$LOG"
    done
    sleep 30
  done
}

trap 'kill $(jobs -p) 2>/dev/null; exit 0' TERM INT
echo "$(stamp) watching azurite :$AZURITE_PORT, s3proxy :$S3_PORT" >>"$LOG"
probe azurite "http://127.0.0.1:$AZURITE_PORT/devstoreaccount1?comp=list" &
probe s3proxy "http://127.0.0.1:$S3_PORT/" &
probe s3 -I --aws-sigv4 "aws:amz:${AWS_REGION:-us-east-1}:s3" --user "${AWS_ACCESS_KEY_ID:-cellgate-test-access}:${AWS_SECRET_ACCESS_KEY:-cellgate-test-secret}" \
  -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "http://127.0.0.1:$S3_PORT/$BUCKET/s3-watch-probe" &
procs &
wait
