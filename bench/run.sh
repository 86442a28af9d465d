#!/usr/bin/env bash
# cellgate benchmark harness: the same Worker (bench/worker) on workerd and on cellgate, back to back.
#
#   bash bench/run.sh                      # everything: load, cold, density (about an hour on 2 cores)
#   bash bench/run.sh load                 # one section: load | cold | density
#   bash bench/run.sh hello counter-hot    # load section, only these scenarios
#   DURATION=5 REPS=1 WARMUP=5 bash bench/run.sh load      # a quick look
#
# It installs what it needs (wrk from Debian apt, sudo only when not root; npm miniflare, whose
# workerd binary is the peer, under bench/.peers), builds cellgate (mvn package, never install),
# starts the loopback S3 server with the repo's .ci/s3-server.sh when a section needs it, and
# writes bench/results/<timestamp>/: raw.tsv, summary.md (tables and ratios), wrk outputs, logs,
# and a JFR profile summary. bench/RESULTS.md is written by hand from summary.md.
#
# Scenarios: hello counter-hot counter-many kv-hot kv-many counter-light (2 connections over the
# 1,000 counters, closed loop), and not by default: rpc-hot, counter-paced and read-paced (latency at
# moderate load: 2 connections over the 1,000 counters, each pausing PACE_MS after every response;
# increments, reads). The asset and KV-binding scenarios, on their own project bench/site (its
# peer is miniflare, see SITE_PEERS): asset (one 8.5 KB static file), kv-get (env.KV.get of one
# key, wrk -c$CONNS) and kv-get-paced (the same at read-paced's moderate load: 2 connections,
# PACE_MS between requests).
# Knobs (environment, defaults in brackets):
#   DURATION [15] REPS [3] THREADS [2] CONNS [50] NAMES [1000] WARMUP [10] EXACT_N [1000] PACE_MS [10]
#   PEERS ["workerd"; add miniflare]  SITE_PEERS ["miniflare"; add workerd-disk: raw workerd's disk service, asset only]  CG_VARIANTS ["cg-file cg-s3 cg-off"]  CG_JAVA_OPTS [-Xmx2g]
#   A variant may carry a tag to compare Java settings side by side: CG_VARIANTS="cg-file cg-file.zgc"
#   with CG_TAG_OPTS_zgc="-XX:+UseZGC" (added to CG_JAVA_OPTS for that variant only)
#   PROFILE [cg-file:hello cg-file:counter-hot cg-s3:counter-hot cg-file:kv-many; "" = none]  PROFILE_REP [1: the repetition profiled]  COLD_REPS [3]  RELEASE_CELLS [1000]
#   FWD_WARM_S [90: wrk on each path before the forwarding rounds]  FWD_ROUNDS [3]  FWD_S [10: seconds of one round]  FWD_N [300]  ACTIVATE_N [300]  EVICT_N [200]  TAKEOVER_REPS [3]  FLEET_TTL_MS [10000]
#   DENSITY_HEAP [4g] DENSITY_STEP [1000] DENSITY_MAX [6000] DENSITY_MAX_S [1800]
#   LOAD_TTL_MS [30000: lease of the load nodes]  LOAD_IDLE_EVICT_MS [3600000: their idle eviction]
#   CELLGATE_SRC [this repo: another checkout to build and measure]  SKIP_BUILD [0]
#   BENCH_PORT_BASE [28100: ports base..base+102]  BENCH_WORK [bench/.work]  KEEP_STATE [0]
set -Eeuo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
source "$HERE/lib/common.sh"
source "$HERE/lib/install.sh"
source "$HERE/lib/servers.sh"
source "$HERE/lib/load.sh"
source "$HERE/lib/cold.sh"
source "$HERE/lib/density.sh"

usage() { sed -n '2,/^set -E/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

SECTIONS=()
SCENARIO_ARGS=()
for a in "$@"; do
  case $a in
    -h | --help) usage; exit 0 ;;
    load | cold | density) SECTIONS+=("$a") ;;
    all) SECTIONS+=(load cold density) ;;
    hello | counter-hot | counter-many | kv-hot | kv-many | counter-light | rpc-hot | counter-paced | read-paced | asset | kv-get | kv-get-paced) SCENARIO_ARGS+=("$a") ;;
    *) echo "run.sh: unknown argument '$a' (sections: load cold density all; scenarios: hello counter-hot counter-many kv-hot kv-many counter-light rpc-hot counter-paced read-paced asset kv-get kv-get-paced)" >&2; exit 2 ;;
  esac
done
[ ${#SCENARIO_ARGS[@]} -gt 0 ] && SCENARIOS="${SCENARIO_ARGS[*]}"
if [ ${#SECTIONS[@]} -eq 0 ]; then
  if [ ${#SCENARIO_ARGS[@]} -gt 0 ]; then SECTIONS=(load); else SECTIONS=(load cold density); fi
fi

mkdir -p "$OUT/logs" "$RUN"
: >"$RAW"
trap 'rc=$?; log "FAILED (exit $rc) at line $LINENO: $BASH_COMMAND"' ERR
cleanup() {
  stop_all_runtimes
  s3_down
  [ "${KEEP_STATE:-0}" = 1 ] || rm -rf "$STATE_ROOT"
}
trap cleanup EXIT

install_all
commit=$(git -C "$CELLGATE_SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$CELLGATE_SRC" diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
{
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "machine=$(machine_line)"
  echo "commit=$commit"
  echo "cellgate_src=$CELLGATE_SRC"
  echo "versions=$(versions_line)"
  echo "wrk=-t$THREADS -c$CONNS -d${DURATION}s x$REPS, warm-up ${WARMUP}s per route, $NAMES objects in *-many"
  echo "sections=${SECTIONS[*]}"
  echo "scenarios=$SCENARIOS"
  echo "cg_java_opts=$CG_JAVA_OPTS"
  echo "load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/meta.env"
log "results in $OUT"
log "$(grep -E '^(machine|commit|versions)=' "$OUT/meta.env" | tr '\n' ' ')"

for s in "${SECTIONS[@]}"; do
  log "=== section $s"
  "${s}_section"
done
echo "load_at_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/meta.env"
python3 "$HERE/tools/report.py" "$OUT" >"$OUT/summary.md"
log "summary: $OUT/summary.md"
cat "$OUT/summary.md"
