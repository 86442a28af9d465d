#!/usr/bin/env bash
# Throughput from the first second after start (issue 22: 90 % of steady-state throughput within
# 60 s of start on the DO scenarios), each runtime on a fresh process and an empty state.
#
#   bash bench/warmup/run.sh                                  # workerd and cg-file, counter-hot and counter-many
#   RTS="cg-file" SCENARIOS="counter-many" TOTAL_S=600 bash bench/warmup/run.sh
#
# Per runtime and scenario: start the process (the bench Worker already in the bucket for
# cellgate), and as soon as /hello answers run wrk in back-to-back windows of WINDOW_S [10]
# seconds for TOTAL_S [420] seconds (-t2 -c50, the load section's settings). Each window prints
# its end time since spawn, req/s, and the server's CPU per request (its whole process group,
# from /proc). Steady state = the median of the windows in the last STEADY_S [60] seconds.
# The box is shared and noisy: req/s moves with whatever else runs, CPU per request far less, so
# the report gives both: the first window at >= 90 % of steady req/s, and the first whose CPU per
# request is within 1/0.9 of steady's (the throughput the server would give on idle cores).
# For cellgate, jit_share is the part of the window's server CPU spent by the JVM's compiler threads
# (HotSpot's C1/C2, which also compile the Graal compiler itself, and Truffle's compiler threads).
# Output: bench/results/warmup-<ts>/windows.tsv and summary.txt.
set -Eeuo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../lib/common.sh
source "$HERE/lib/common.sh"
source "$HERE/lib/install.sh"
source "$HERE/lib/servers.sh"

RTS=${RTS:-"workerd cg-file"}
SCENARIOS=${SCENARIOS:-"counter-hot counter-many"}
WINDOW_S=${WINDOW_S:-10}
TOTAL_S=${TOTAL_S:-420}
STEADY_S=${STEADY_S:-60}
OUT=$BENCH_DIR/results/warmup-$TS
RAW=$OUT/windows.tsv
mkdir -p "$OUT/logs" "$OUT/wrk"
LOAD_IDLE_EVICT_MS=3600000
CG_EXTRA_ENV="CELLD_TTL_MS=30000 CELLD_IDLE_EVICT_MS=$LOAD_IDLE_EVICT_MS ${CG_EXTRA_ENV:-}"
trap 'stop_all_runtimes' EXIT

install_apt_tools
export CELLGATE_NPM_TOOLS=${CELLGATE_NPM_TOOLS:-$REPO_DIR/.ci/npm-tools}
install_peers
[ -f "$CELLGATE_SRC/gateway/target/gateway.jar" ] || build_cellgate
TICK_US=$((1000000 / $(getconf CLK_TCK)))
echo "machine: $(machine_line); commit $(git -C "$CELLGATE_SRC" rev-parse --short HEAD); $(date -u +%FT%TZ); $(versions_line)" | tee "$OUT/summary.txt"
printf 'rt\tscenario\tend_s\trps\tcpu_us_per_req\tload1\tjit_share\n' >"$RAW"

# CPU ticks of a JVM's compiler threads (thread names are cut to 15 characters by the kernel).
jit_ticks() {
  local t=0 d
  for d in /proc/"$1"/task/*; do
    case $(cat "$d/comm" 2>/dev/null) in
      "C1 CompilerThre"* | "C2 CompilerThre"* | Truffle* | JVMCI*) ;;
      *) continue ;;
    esac
    t=$((t + $(stat_ticks "$d/stat")))
  done
  echo "$t"
}

url_of() {  # rt scenario -> url + wrk env
  case $2 in
    counter-hot) echo "$(base_of "$1")/counter/hot-$TS" ;;
    counter-many) echo "$(base_of "$1") BENCH_PREFIX=/counter/w$TS- BENCH_OBJECTS=$NAMES" ;;
    hello) echo "$(base_of "$1")/hello" ;;
    *) die "unknown scenario $2 (counter-hot counter-many hello)" ;;
  esac
}

for rt in $RTS; do
  for sc in $SCENARIOS; do
    STATE=$STATE_ROOT/$rt-$sc
    rm -rf "$STATE"; mkdir -p "$STATE/$rt"
    is_cellgate "$rt" && deploy_bundle "$(bucket_of "$rt")"
    t_spawn=$(date +%s%N)
    start_runtime "$rt"
    log "$rt $sc: first /hello after $START_MS ms; windows of $WINDOW_S s for $TOTAL_S s"
    read -r url envs <<<"$(url_of "$rt" "$sc")"
    read -r -a envs <<<"${envs:-}"
    g=$(group_of "$rt")
    n=$((TOTAL_S / WINDOW_S))
    jvm=$(jvm_of "$rt")
    for i in $(seq "$n"); do
      a=$(group_ticks "$g"); ja=$(jit_ticks "$jvm")
      line=$(env "${envs[@]}" wrk -t"$THREADS" -c"$CONNS" -d"${WINDOW_S}s" --timeout 10s -s "$BENCH_DIR/wrk/load.lua" "$url" 2>&1 \
        | tee -a "$OUT/wrk/$rt.$sc.txt" | grep '^BENCH ' || true)
      b=$(group_ticks "$g"); jb=$(jit_ticks "$jvm")
      share=$(awk -v j=$((jb - ja)) -v t=$((b - a)) 'BEGIN{printf "%.2f", t ? j/t : 0}')
      req=$(sed -n 's/.*requests=\([0-9]*\).*/\1/p' <<<"$line"); secs=$(sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' <<<"$line")
      end_s=$(( ($(date +%s%N) - t_spawn) / 1000000000 ))
      rps=$(awk -v r="${req:-0}" -v s="${secs:-1}" 'BEGIN{printf "%.0f", r/s}')
      cpu=$(awk -v t=$((b - a)) -v u="$TICK_US" -v r="${req:-0}" 'BEGIN{printf "%.0f", r ? t*u/r : 0}')
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rt" "$sc" "$end_s" "$rps" "$cpu" "$(loadavg1)" "$share" | tee -a "$RAW" >&2
    done
    stop_runtime "$rt"
    python3 - "$RAW" "$rt" "$sc" "$STEADY_S" "$WINDOW_S" "$START_MS" <<'PY' | tee -a "$OUT/summary.txt"
import sys, statistics
raw, rt, sc, steady_s, window_s, start_ms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
rows = [l.rstrip("\n").split("\t") for l in open(raw)][1:]
rows = [(int(r[2]), float(r[3]), float(r[4])) for r in rows if r[0] == rt and r[1] == sc]
k = max(1, steady_s // window_s)
steady_rps = statistics.median(r[1] for r in rows[-k:])
steady_cpu = statistics.median(r[2] for r in rows[-k:])
first_rps = next((r[0] for r in rows if r[1] >= 0.9 * steady_rps), None)
first_cpu = next((r[0] for r in rows if r[2] and r[2] <= steady_cpu / 0.9), None)
at60 = [r for r in rows if r[0] <= 60 + window_s // 2]
w60 = at60[-1] if at60 else None
print(f"{rt} {sc}: start {start_ms} ms; steady (last {steady_s} s of {rows[-1][0]} s) {steady_rps:.0f} req/s, "
      f"{steady_cpu:.0f} us CPU/req; >= 90% of steady req/s first at {first_rps} s; CPU/req within 1/0.9 of steady first at {first_cpu} s; "
      + (f"window ending at {w60[0]} s: {w60[1]:.0f} req/s ({100 * w60[1] / steady_rps:.0f}%), {w60[2]:.0f} us/req ({100 * steady_cpu / w60[2]:.0f}% of steady's throughput per CPU)" if w60 else ""))
PY
  done
done
echo "windows: $RAW"
