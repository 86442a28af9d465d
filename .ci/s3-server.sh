#!/usr/bin/env bash
# .ci/s3-server.sh start|stop|status
#
# Real S3-compatible servers on loopback for the store-s3 tests and the storage probe tests.
# Installs what it needs from Maven Central (mvn) and the npm registry (npm) only.
#
#   azurite-backed S3 : S3Proxy 4.1.0 (azureblob provider) on Azurite 3.37.0, in memory.
#                       Azure's Put Blob evaluates If-Match / If-None-Match atomically, so this
#                       server QUALIFIES as a cellgate bucket.
#   filesystem S3     : S3Proxy 4.1.0 (filesystem provider), the NEGATIVE CONTROL. Its If-Match
#                       is a read-then-write emulation, so racing compare-and-swaps can all win;
#                       the storage probe must refuse it.
#
# `start` writes $WORK/s3.env (source it before running the tests):
#   S3_ENDPOINT, S3_FS_ENDPOINT, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, S3_BUCKET
#
# Environment (all optional):
#   S3_SERVER_WORK  work dir (default: <repo>/.ci/work/s3-server, git-ignored)
#   S3_PORT         azurite-backed S3 port      (default 19000)
#   S3_FS_PORT      filesystem-backed S3 port   (default 19001)
#   AZURITE_PORT    Azurite blob port           (default 19010)
#   S3_BUCKET       bucket created on both servers (default cellgate-test)
#   S3PROXY_HEAP    -Xmx of the azurite-backed S3Proxy (default 384m)
#   AZURITE_KEEPALIVE_S  how long Azurite keeps an idle connection (default 120; its own default is 5)
#   AZURITE_GC_INTERVAL_MS  time between Azurite's extent GC passes (default 6 h; its own is 10 min, and
#                   a pass answers nothing for its length: see .ci/azurite-launch.js)
#   S3_SERVER_NICE  CPU priority of the emulator processes (default -10: above builds and nodes, when allowed)
#
# `stop` stops only the processes this work dir started (their command lines name it).
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${S3_SERVER_WORK:-$REPO/.ci/work/s3-server}
S3_PORT=${S3_PORT:-19000}
S3_FS_PORT=${S3_FS_PORT:-19001}
AZURITE_PORT=${AZURITE_PORT:-19010}
BUCKET=${S3_BUCKET:-cellgate-test}
S3PROXY_HEAP=${S3PROXY_HEAP:-384m}
AZURITE_KEEPALIVE_S=${AZURITE_KEEPALIVE_S:-120}
export AZURITE_GC_INTERVAL_MS=${AZURITE_GC_INTERVAL_MS:-21600000}
S3_SERVER_NICE=${S3_SERVER_NICE:--10}
S3PROXY_VERSION=4.1.0
AZURITE_VERSION=3.37.0
ACCESS_KEY=cellgate-test-access
SECRET_KEY=cellgate-test-secret
REGION=us-east-1
# Azurite's well-known development account (documented by Microsoft; not a secret).
AZURE_ACCOUNT=devstoreaccount1
AZURE_KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
PROCS="azurite s3proxy-azure s3proxy-fs"

say() { echo "[s3-server] $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

# True when process $1 is the one this work dir started as $2 (its command line names this work dir):
# a stale pid file whose pid was reused by something else is never killed.
ours() {
  local pid=$1 name=$2 cmd
  cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 1
  case $name in
    azurite) [[ $cmd == *"$WORK/npm/node_modules/"* ]] ;;
    *) [[ $cmd == *"$WORK/$name.properties"* ]] ;;
  esac
}

stop_one() {
  local name=$1 pidfile=$WORK/$1.pid pid
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null && ! ours "$pid" "$name"; then
    say "not stopping pid $pid: it is not the $name this work dir ($WORK) started"
  elif kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
    say "stopped $name (pid $pid)"
  fi
  rm -f "$pidfile"
}

stop_all() { for p in $PROCS; do stop_one "$p"; done; }

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Waits until something answers HTTP on the port; gives up early when the process died.
await_port() {
  local name=$1 port=$2 seconds=$3 pid
  pid=$(cat "$WORK/$name.pid")
  for _ in $(seq $((seconds * 10))); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/" || true)" != 000 ]; then
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || { tail -30 "$WORK/logs/$name.log" >&2; fail "$name exited while starting"; }
    sleep 0.1
  done
  tail -30 "$WORK/logs/$name.log" >&2
  fail "$name did not answer on 127.0.0.1:$port within ${seconds}s"
}

install() {
  command -v curl >/dev/null || fail "curl is required (apt-get install curl)"
  command -v mvn >/dev/null || fail "mvn is required"
  command -v npm >/dev/null || fail "node and npm are required (Node 18+)"
  local jar=$WORK/lib/s3proxy-$S3PROXY_VERSION-jar-with-dependencies.jar
  if [ ! -s "$jar" ]; then
    say "fetching S3Proxy $S3PROXY_VERSION from Maven Central"
    mvn -B -q dependency:copy -Dartifact="org.gaul:s3proxy:$S3PROXY_VERSION:jar:jar-with-dependencies" \
        -DoutputDirectory="$WORK/lib" >"$WORK/logs/mvn.log" 2>&1 \
      || { tail -30 "$WORK/logs/mvn.log" >&2; fail "mvn could not fetch org.gaul:s3proxy:$S3PROXY_VERSION"; }
  fi
  local have
  have=$(node -e "try{console.log(require('$WORK/npm/node_modules/azurite/package.json').version)}catch(e){}" 2>/dev/null || true)
  if [ "$have" != "$AZURITE_VERSION" ]; then
    say "installing azurite $AZURITE_VERSION from the npm registry"
    mkdir -p "$WORK/npm"
    npm install --prefix "$WORK/npm" --no-save --no-audit --no-fund --loglevel=error "azurite@$AZURITE_VERSION" \
        >"$WORK/logs/npm.log" 2>&1 \
      || { tail -30 "$WORK/logs/npm.log" >&2; fail "npm could not install azurite@$AZURITE_VERSION"; }
  fi
  S3PROXY_JAR=$jar
}

# Writes an S3Proxy properties file: $1 name, $2 port, then provider lines.
s3proxy_conf() {
  local name=$1 port=$2
  shift 2
  {
    echo "s3proxy.endpoint=http://127.0.0.1:$port"
    echo "s3proxy.authorization=aws-v2-or-v4"
    echo "s3proxy.identity=$ACCESS_KEY"
    echo "s3proxy.credential=$SECRET_KEY"
    printf '%s\n' "$@"
  } >"$WORK/$name.properties"
}

# The emulator stands in for a storage service on machines of its own; here it shares a few cores
# with the nodes and the builds. Azurite runs every request, and every 10 minutes a mark-and-sweep
# over all blobs (its extent GC), on one event loop: on a starved box that sweep's second of CPU
# took 33-60 s of wall time, and nothing was answered meanwhile (.ci/s3-watch.sh showed Azurite
# itself silent, S3Proxy's JVM answering). So both run at a higher CPU priority when allowed.
PRIORITY=()
priority() {
  if [ "$S3_SERVER_NICE" -ge 0 ] || nice -n "$S3_SERVER_NICE" true 2>/dev/null; then
    PRIORITY=(nice -n "$S3_SERVER_NICE")
    say "the emulator runs at nice $S3_SERVER_NICE"
  else
    say "WARNING: cannot run the emulator at nice $S3_SERVER_NICE (not permitted here): on a starved machine its" \
      "periodic blob GC can stall every answer for tens of seconds"
  fi
}

launch() {  # name, command...
  local name=$1
  shift
  nohup "${PRIORITY[@]}" "$@" >"$WORK/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$WORK/$name.pid"
}

# A SigV4-signed request with curl (the explicit sha256 header is signed along; curl 7.88 does not add it).
s3req() {  # endpoint method path [curl args...]
  local endpoint=$1 method=$2 path=$3
  shift 3
  curl -s -X "$method" --aws-sigv4 "aws:amz:$REGION:s3" --user "$ACCESS_KEY:$SECRET_KEY" \
    -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -H 'Content-Type: application/octet-stream' "$@" "$endpoint$path"
}

# Creates the bucket and checks that both conditional headers are understood (sequentially: this
# proves the server speaks the protocol, not that it is atomic; the tests and the probe race it).
prepare() {  # endpoint
  local ep=$1 code key hdr etag a b c d
  code=$(s3req "$ep" PUT "/$BUCKET" -o /dev/null -w '%{http_code}')
  case $code in 200 | 409) ;; *) fail "create bucket $BUCKET on $ep answered HTTP $code" ;; esac
  key="/$BUCKET/s3-server-check-$$"
  hdr=$(mktemp)
  a=$(s3req "$ep" PUT "$key" -H 'If-None-Match: *' --data-binary 1 -D "$hdr" -o /dev/null -w '%{http_code}')
  etag=$(tr -d '\r' <"$hdr" | sed -n 's/^[Ee][Tt][Aa][Gg]: *//p')
  b=$(s3req "$ep" PUT "$key" -H 'If-None-Match: *' --data-binary 2 -o /dev/null -w '%{http_code}')
  c=$(s3req "$ep" PUT "$key" -H "If-Match: $etag" --data-binary 3 -o /dev/null -w '%{http_code}')
  d=$(s3req "$ep" PUT "$key" -H "If-Match: $etag" --data-binary 4 -o /dev/null -w '%{http_code}')
  s3req "$ep" DELETE "$key" -o /dev/null
  rm -f "$hdr"
  [ "$a $b $c $d" = "200 412 200 412" ] \
    || fail "$ep: conditional writes answered create=$a create-again=$b cas=$c stale-cas=$d (want 200 412 200 412)"
}

start() {
  mkdir -p "$WORK/logs" "$WORK/lib"
  stop_all
  for port in "$S3_PORT" "$S3_FS_PORT" "$AZURITE_PORT"; do
    listening "$port" && fail "127.0.0.1:$port is in use (set S3_PORT / S3_FS_PORT / AZURITE_PORT)"
  done
  local t0=$SECONDS
  install
  priority
  say "installed in $((SECONDS - t0))s; starting"

  # Keep-alive: Azurite's default closes a connection idle for 5 s, while S3Proxy's HTTP client keeps
  # pooled connections for 30 s and may send on one just as Azurite closes it. A server that keeps
  # them longer than the client leaves the closing to the client: no race.
  # Extent GC: Azurite's sweep every 10 minutes answers nothing while it runs (~50 s late in a CI run,
  # see .ci/azurite-launch.js); AZURITE_GC_INTERVAL_MS spaces the passes beyond a CI or qualify run.
  launch azurite node "$REPO/.ci/azurite-launch.js" "$WORK/npm/node_modules/azurite" \
    --blobHost 127.0.0.1 --blobPort "$AZURITE_PORT" \
    --blobKeepAliveTimeout "$AZURITE_KEEPALIVE_S" --inMemoryPersistence --skipApiVersionCheck --disableTelemetry --silent
  await_port azurite "$AZURITE_PORT" 60

  s3proxy_conf s3proxy-azure "$S3_PORT" \
    "jclouds.provider=azureblob" \
    "jclouds.endpoint=http://127.0.0.1:$AZURITE_PORT/$AZURE_ACCOUNT" \
    "jclouds.identity=$AZURE_ACCOUNT" \
    "jclouds.credential=$AZURE_KEY"
  rm -rf "$WORK/fs-data" && mkdir -p "$WORK/fs-data"
  s3proxy_conf s3proxy-fs "$S3_FS_PORT" \
    "jclouds.provider=filesystem" \
    "jclouds.filesystem.basedir=$WORK/fs-data"
  # Heaps: both proxies together must fit next to a build on a 2-core CI box; the filesystem one (the
  # negative control) only serves the probe tests. Every collection of the azure one is logged, so a
  # stall of the emulator can be told apart from a pause of its JVM (.ci/s3-watch.sh watches both).
  launch s3proxy-azure "$JAVA" -Xms64m -Xmx"$S3PROXY_HEAP" -XX:+UseSerialGC \
    -Xlog:gc:file="$WORK/logs/s3proxy-azure-gc.log":time,uptime:filecount=2,filesize=20m \
    -jar "$S3PROXY_JAR" --properties "$WORK/s3proxy-azure.properties"
  launch s3proxy-fs "$JAVA" -Xms32m -Xmx256m -XX:+UseSerialGC -jar "$S3PROXY_JAR" --properties "$WORK/s3proxy-fs.properties"
  await_port s3proxy-azure "$S3_PORT" 120
  await_port s3proxy-fs "$S3_FS_PORT" 120

  prepare "http://127.0.0.1:$S3_PORT"
  prepare "http://127.0.0.1:$S3_FS_PORT"

  cat >"$WORK/s3.env" <<EOF
export S3_ENDPOINT=http://127.0.0.1:$S3_PORT
export S3_FS_ENDPOINT=http://127.0.0.1:$S3_FS_PORT
export AWS_ACCESS_KEY_ID=$ACCESS_KEY
export AWS_SECRET_ACCESS_KEY=$SECRET_KEY
export AWS_REGION=$REGION
export S3_BUCKET=$BUCKET
EOF
  say "ready in $((SECONDS - t0))s: azurite-backed S3 on :$S3_PORT, filesystem S3 (negative control) on :$S3_FS_PORT"
  say "env file: $WORK/s3.env   logs: $WORK/logs   stop: $0 stop"
  echo "$WORK/s3.env"
}

status() {
  local p
  for p in $PROCS; do
    if [ -f "$WORK/$p.pid" ] && kill -0 "$(cat "$WORK/$p.pid")" 2>/dev/null; then
      echo "$p running (pid $(cat "$WORK/$p.pid"))"
    else
      echo "$p stopped"
    fi
  done
}

case ${1:-} in
  start) start ;;
  stop) stop_all ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
