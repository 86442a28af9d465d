#!/usr/bin/env bash
# Runs the image built by build-image.sh the way a container runtime would, without one: unpacks
# it with umoci, enters its root file system with chroot in new mount and PID namespaces (the
# node's launcher JVM is PID 1, as in a container), as the image's user, with the image's env and
# working directory, a read-only root but for /tmp and /var/lib/cellgate, on this host's network
# (loopback ports chosen here). Then checks:
#   1. /__celld/health answers 503 "deployment":"none" (no deployment yet: not ready)
#   2. /state says the engine runs on the Graal JIT (the jlink'd runtime can relaunch with JVMCI)
#   3. after deploy-tool push examples/hello into the image's bucket, /hello answers "hello"
#   4. SIGTERM to PID 1 stops the node with exit code 0 and node.stopped in its log
# Needs root (unshare, mount, chroot), umoci, jq, curl, and deploy-tool/target/deploy-tool.jar.
#   bash gateway/packaging/oci/smoke-test.sh [--tag TAG]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
OUT="$ROOT/gateway/packaging/oci/target"
TAG="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$ROOT/pom.xml" | head -1)"
[[ "${1:-}" == "--tag" ]] && TAG="$2"
die() { echo "smoke-test: FAILED: $*" >&2; [[ -f "${LOG:-}" ]] && tail -20 "$LOG" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || die "needs root (unshare --mount --pid, chroot)"
[[ -d "$OUT/cellgate-oci" ]] || die "no image in $OUT/cellgate-oci: run gateway/packaging/oci/build-image.sh"

WORK=$(mktemp -d /tmp/cellgate-smoke.XXXXXX)
NODE_PID=
cleanup() {
  [[ -n "$NODE_PID" ]] && kill -KILL "$NODE_PID" 2>/dev/null || true
  [[ -n "${UNSHARE_PID:-}" ]] && wait "$UNSHARE_PID" 2>/dev/null || true
  # The /dev and /proc mounts live in the namespace, gone with it; never delete through one anyway.
  if mountpoint -q "$WORK/bundle/rootfs/dev" || mountpoint -q "$WORK/bundle/rootfs/proc"; then
    echo "smoke-test: $WORK still has mounts; not removing it" >&2
  else
    rm -rf "$WORK"
  fi
}
trap cleanup EXIT
umoci unpack --image "$OUT/cellgate-oci:$TAG" "$WORK/bundle" >/dev/null
R="$WORK/bundle/rootfs"
CFG="$WORK/bundle/config.json"
uid=$(jq -r .process.user.uid "$CFG"); gid=$(jq -r .process.user.gid "$CFG")
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PUB=$(free_port); INT=$(free_port)
LOG="$WORK/node.log"
mkdir -p "$R/proc" "$R/dev"
# The image's environment plus loopback listeners: this "container" shares the host's network.
# What a runtime does at the end, done by Python: chroot, chdir to the image's working directory,
# drop to its user, execve its argv with exactly its environment (no shell: the image has none).
enter='import os, sys, json
root, cfg = sys.argv[1], json.load(open(sys.argv[2]))
p = cfg["process"]
os.chroot(root); os.chdir(p["cwd"])
os.setgroups([]); os.setgid(p["user"]["gid"]); os.setuid(p["user"]["uid"])
env = dict(e.split("=", 1) for e in p["env"])
env.update(e.split("=", 1) for e in sys.argv[3:])
os.execve(p["args"][0], p["args"], env)'
# The root file system is read-only but for /tmp and /var/lib/cellgate, as k8s/statefulset.yaml
# runs it (readOnlyRootFilesystem with emptyDirs there): a write anywhere else fails the test.
unshare --mount --pid --fork --kill-child bash -c '
  set -e; R=$1
  mount --bind "$R/tmp" "$R/tmp"; mount --bind "$R/var/lib/cellgate" "$R/var/lib/cellgate"
  mount --rbind "$R" "$R"; mount -o remount,bind,ro "$R"
  mount -t proc proc "$R/proc"; mount --rbind /dev "$R/dev"
  exec python3 -c "$0" "$@"' "$enter" "$R" "$CFG" CELLD_ADDR="127.0.0.1:$PUB" CELLD_INTERNAL_ADDR="127.0.0.1:$INT" >"$LOG" 2>&1 &
UNSHARE_PID=$!
t0=$(date +%s%N)
for _ in $(seq 1 50); do NODE_PID=$(pgrep -P "$UNSHARE_PID" || true); [[ -n "$NODE_PID" ]] && break; sleep 0.1; done
[[ -n "$NODE_PID" ]] || die "the node did not start"

health=""
for _ in $(seq 1 300); do
  health=$(curl -s -o - -w ' %{http_code}' "http://127.0.0.1:$PUB/__celld/health" 2>/dev/null || true)
  [[ "$health" == *'"deployment":"none"'*' 503' ]] && break
  kill -0 "$UNSHARE_PID" 2>/dev/null || die "the node exited before it answered"
  sleep 0.2
done
[[ "$health" == *'"deployment":"none"'*' 503' ]] || die "health: expected 503 deployment none, got: $health"
echo "smoke-test: 1. health before a deployment: $health (after $(( ($(date +%s%N) - t0) / 1000000 )) ms)"

mode=$(curl -s "http://127.0.0.1:$INT/state" | jq -r .engine.mode)
[[ "$mode" == "jit" ]] || die "engine mode is '$mode', expected jit: $(curl -s "http://127.0.0.1:$INT/state" | jq -c .engine)"
echo "smoke-test: 2. engine: $(curl -s "http://127.0.0.1:$INT/state" | jq -c .engine)"

bucket=$(jq -r .bucket "$R/etc/cellgate/node.json")
[[ "$bucket" == file:///* ]] || die "the image's node.json bucket is not a file:// URL: $bucket"
"$ROOT/deploy-tool/deploy-tool" push "$ROOT/examples/counter" --bucket "file://$R${bucket#file://}" > "$WORK/push.log" 2>&1 \
  || { cat "$WORK/push.log" >&2; die "deploy-tool push"; }
chown -R "$uid:$gid" "$R${bucket#file://}"
first=""
for _ in $(seq 1 150); do
  first=$(curl -s "http://127.0.0.1:$PUB/sql/apples" || true)
  [[ "$first" =~ ^[0-9]+$ ]] && break
  sleep 0.2
done
second=$(curl -s "http://127.0.0.1:$PUB/sql/apples" || true)
[[ "$first" == 1 && "$second" == 2 ]] || die "/sql/apples answered '$first' then '$second', expected 1 then 2"
echo "smoke-test: 3. after deploy-tool push examples/counter: GET /sql/apples -> $first, then $second"

s0=$(date +%s%N)
kill -TERM "$NODE_PID"
wait "$UNSHARE_PID" && code=0 || code=$?
stop_ms=$(( ($(date +%s%N) - s0) / 1000000 ))
NODE_PID=
[[ $code -eq 0 ]] || die "exit code $code after SIGTERM, expected 0"
grep -q '"event":"node.stopped"' "$LOG" || die "no node.stopped line"
grep -q '"event":"shutdown.drained".*"released":1,' "$LOG" || die "the drain did not release the one cell: $(grep shutdown.drained "$LOG")"
echo "smoke-test: 4. SIGTERM to PID 1: exit 0 in $stop_ms ms; $(grep -o '"event":"shutdown.drained"[^}]*' "$LOG" | head -1)"
echo "smoke-test: passed"
