# Shared settings and helpers of the bench scripts (sourced, not run).
#
# Every knob is an environment variable with a default; run.sh --help lists them.
# Servers run in their own process group (setsid) so that their CPU time can be summed over the
# whole group (cellgate's launcher JVM + the JIT-enabled child JVM it starts) and so that a kill
# reaches every process of one server and nothing else.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
# The cellgate checkout to build and run (another clone, e.g. one with a fix applied, can be measured).
CELLGATE_SRC=$(cd "${CELLGATE_SRC:-$REPO_DIR}" && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA=$JAVA_HOME/bin/java
JCMD=$JAVA_HOME/bin/jcmd

DURATION=${DURATION:-15}            # seconds per wrk run
REPS=${REPS:-3}                     # wrk runs per scenario and runtime
THREADS=${THREADS:-2}
CONNS=${CONNS:-50}
NAMES=${NAMES:-1000}                # objects in the *-many scenarios
WARMUP=${WARMUP:-10}                # seconds of untimed load per route before measuring (JIT)
EXACT_N=${EXACT_N:-1000}            # increments of each exact correctness check
PEERS=${PEERS:-workerd}             # reference runtimes: workerd (raw binary), miniflare
# The asset and KV-binding scenarios run bench/site, which raw workerd cannot run (no Workers
# assets, no KV): their peer is miniflare, optionally beside workerd-disk (raw workerd's `disk`
# service serving the same directory: a static file server, not Workers assets; asset only).
SITE_PEERS=${SITE_PEERS:-miniflare}
SITE_SCENARIO_NAMES="asset kv-get kv-get-paced"
is_site_scenario() { [[ " $SITE_SCENARIO_NAMES " == *" $1 "* ]]; }
CG_VARIANTS=${CG_VARIANTS:-"cg-file cg-s3 cg-off"}
CG_JAVA_OPTS=${CG_JAVA_OPTS:--Xmx2g}
MINIFLARE_VERSION=${MINIFLARE_VERSION:-4.20260730.0}
PORT_BASE=${BENCH_PORT_BASE:-28100}
WORK=${BENCH_WORK:-$BENCH_DIR/.work}
PEERS_DIR=$BENCH_DIR/.peers
WORKERD_BIN=$PEERS_DIR/node_modules/@cloudflare/workerd-linux-64/bin/workerd
# The S3-compatible server of the repo's CI tooling, on ports of our own (other users of the
# script on this machine keep its defaults) and in a work dir of our own.
export S3_SERVER_WORK=${S3_SERVER_WORK:-$WORK/s3-server}
export S3_PORT=${S3_PORT:-$((PORT_BASE + 100))}
export S3_FS_PORT=${S3_FS_PORT:-$((PORT_BASE + 101))}
export AZURITE_PORT=${AZURITE_PORT:-$((PORT_BASE + 102))}

TS=${BENCH_TS:-$(date +%Y%m%d-%H%M%S)}
OUT=${BENCH_OUT:-$BENCH_DIR/results/$TS}
RUN=$WORK/run
RAW=$OUT/raw.tsv

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Ports: each runtime has a public port; cellgate nodes also have an internal one (+1).
# A cellgate variant may carry a tag: cg-file.zgc is cg-file with the extra Java options of
# CG_TAG_OPTS_zgc (and its own port, 5 above its base's), so two settings run side by side.
base_of_variant() { echo "${1%%.*}"; }
tag_of_variant() { [[ $1 == *.* ]] && echo "${1#*.}" || true; }
port_of() {
  if [[ $1 == cg-*.* ]]; then
    echo $(($(port_of "$(base_of_variant "$1")") + 5))
    return
  fi
  case $1 in
    workerd) echo $((PORT_BASE)) ;;
    miniflare) echo $((PORT_BASE + 1)) ;;
    workerd-disk) echo $((PORT_BASE + 2)) ;;
    cg-file) echo $((PORT_BASE + 10)) ;;
    cg-s3) echo $((PORT_BASE + 20)) ;;
    cg-off) echo $((PORT_BASE + 30)) ;;
    cg-a) echo $((PORT_BASE + 40)) ;;
    cg-b) echo $((PORT_BASE + 50)) ;;
    cg-dense) echo $((PORT_BASE + 60)) ;;
    cg-cold) echo $((PORT_BASE + 70)) ;;
    *) die "no port for '$1'" ;;
  esac
}
base_of() { echo "http://127.0.0.1:$(port_of "$1")"; }
internal_of() { echo "http://127.0.0.1:$(($(port_of "$1") + 1))"; }
is_cellgate() { [[ $1 == cg-* ]]; }

# Appends one tab-separated row to raw.tsv: kind, then key=value fields (order kept).
record() { local IFS=$'\t'; echo "$*" >>"$RAW"; }

# User+system CPU ticks in one /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat file; 0 once it is gone.
stat_ticks() {
  local s
  s=$(cat "$1" 2>/dev/null) || { echo 0; return; }
  s=${s##*) }
  set -- $s
  echo $((${12} + ${13}))
}
# CPU ticks (user+system) of every live process in a process group.
group_ticks() {
  local t=0 p
  for p in $(pgrep -g "$1" 2>/dev/null); do t=$((t + $(stat_ticks "/proc/$p/stat"))); done
  echo "$t"
}
# CPU ticks of a list of pids (the S3 server's processes).
pids_ticks() {
  local t=0 p
  for p in "$@"; do t=$((t + $(stat_ticks "/proc/$p/stat"))); done
  echo "$t"
}
QUIESCE_MAX_S=${QUIESCE_MAX_S:-120}
# Waits until the runtimes listed in $1 together use at most 5 % of one CPU over a second, or
# QUIESCE_MAX_S: a cellgate JVM keeps compiling (Graal) for a minute or more after a burst of work.
wait_idle() {  # "rt ..." why
  local t0=$SECONDS a b
  while :; do
    a=$(rts_ticks $1); sleep 1; b=$(rts_ticks $1)
    [ $((b - a)) -le 5 ] && break
    if [ $((SECONDS - t0)) -ge "$QUIESCE_MAX_S" ]; then
      log "$1 still use $((b - a)) % of a CPU after ${QUIESCE_MAX_S}s: measuring $2 anyway"
      break
    fi
  done
  [ $((SECONDS - t0)) -gt 2 ] && log "waited $((SECONDS - t0)) s for$1 to go idle $2"
  return 0
}
# CPU ticks of the process groups of the runtimes named.
rts_ticks() {
  local o g t=0
  for o in "$@"; do
    g=$(group_of "$o")
    [ -n "$g" ] && t=$((t + $(group_ticks "$g")))
  done
  echo "$t"
}
# Cumulative microseconds during which some task waited for a CPU (PSI), 0 when unavailable.
cpu_stall_us() { awk '/^some/{sub("total=","",$5); print $5; f=1} END{if(!f) print 0}' /proc/pressure/cpu 2>/dev/null || echo 0; }
loadavg1() { cut -d' ' -f1 /proc/loadavg; }

median() { sort -g | awk '{a[NR]=$1} END{if(NR==0){print "nan"} else if(NR%2){print a[(NR+1)/2]} else {print (a[NR/2]+a[NR/2+1])/2}}'; }

# Starts a server in its own process group; its pid (= group id) goes to $RUN/<name>.pid.
start_group() {  # name logfile cmd...
  local name=$1 logf=$2
  shift 2
  mkdir -p "$RUN"
  setsid "$@" >>"$logf" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
}
group_of() { cat "$RUN/$1.pid" 2>/dev/null || true; }
# Running (a server that exited stays a zombie child of this shell until reaped: not alive).
alive() {
  local p st
  p=$(group_of "$1")
  [ -n "$p" ] || return 1
  st=$(cat "/proc/$p/stat" 2>/dev/null) || return 1
  st=${st##*) }
  [ "${st%% *}" != Z ]
}

# Stops a server: SIGTERM to its leader, then SIGKILL to the group after $2 seconds (default 30).
stop_group() {
  local name=$1 grace=${2:-30} pid
  pid=$(group_of "$name")
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((grace * 20))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$RUN/$name.pid"
}

# The JVM that runs cellgate's code: the JIT child when the launcher relaunched, else the leader.
jvm_of() {
  local pg child
  pg=$(group_of "$1")
  child=$(pgrep -g "$pg" -f 'EnableJVMCI' 2>/dev/null | head -1 || true)
  echo "${child:-$pg}"
}

machine_line() {
  local cpu
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
  echo "$(nproc) cores ($cpu), $(free -g | awk '/^Mem:/{print $2}') GB RAM, $(uname -r)"
}
