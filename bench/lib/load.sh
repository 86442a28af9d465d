# Load section: the same Worker on every runtime, back to back, under wrk (sourced by run.sh).
#
# Rows in raw.tsv (tab-separated key=value):
#   start     rt ms                       spawn -> first good /hello of the load processes
#   load      rt sc rep rps requests ...  one wrk run (latencies in us, cpu in us per request)
#   newdo     rt n ok p50_ms p99_ms ...   first request to never-seen objects on a warm process
#   check     rt what verdict detail      correctness after the load
#   exact     rt verdict detail           linearizability check under concurrency
#   check     rt what=asset|kv-get verdict detail   (bench/site) the bytes served are the file's / the seeded value
#
# The scenarios of bench/worker and those of bench/site (asset, kv-get, kv-get-paced) run in two
# groups, one after the other: each group deploys its own project and starts its own processes,
# so bench/worker stays the very file raw workerd runs. The site group's peers are SITE_PEERS.

SCENARIOS=${SCENARIOS:-"hello counter-hot counter-many kv-hot kv-many counter-light"}
LOAD_TTL_MS=${LOAD_TTL_MS:-30000}
# Pause of each connection after a response in the *-paced scenarios (moderate load).
PACE_MS=${PACE_MS:-10}
# Idle eviction of the load nodes: the load section measures requests to RESIDENT objects (the cold
# section measures activation). With the node default (5 min) a busy box, where filling and warming
# four runtimes takes half an hour and one repetition cycle several minutes, evicts the *-many objects
# between their runs, and counter-many then measures re-activations.
LOAD_IDLE_EVICT_MS=${LOAD_IDLE_EVICT_MS:-3600000}
# rt:scenario pairs profiled with JFR during rep 1 ('' = none)
PROFILE=${PROFILE-"cg-file:hello cg-file:counter-hot cg-s3:counter-hot cg-file:kv-many"}

# rt scenario -> "URL THREADS CONNS [env...]" for wrk
scenario_spec() {
  local base
  base=$(base_of "$1")
  case $2 in
    hello) echo "$base/hello $THREADS $CONNS" ;;
    counter-hot) echo "$base/counter/hot $THREADS $CONNS" ;;
    kv-hot) echo "$base/kv/hot $THREADS $CONNS" ;;
    rpc-hot) echo "$base/rpc/hot $THREADS $CONNS" ;;
    counter-many) echo "$base $THREADS $CONNS BENCH_PREFIX=/counter/n BENCH_OBJECTS=$NAMES" ;;
    kv-many) echo "$base $THREADS $CONNS BENCH_PREFIX=/kv/n BENCH_OBJECTS=$NAMES" ;;
    # 2 connections over the 1,000 objects as fast as they go: on 2 cores that is about half of
    # what the box can do, so latency here includes queueing behind the node's own background work.
    counter-light) echo "$base 1 2 BENCH_PREFIX=/counter/n BENCH_OBJECTS=$NAMES" ;;
    # Moderate load for the resident-request latency target: 2 connections over the 1,000 objects,
    # each pausing PACE_MS after every response (≤ 2 × 1000 / PACE_MS req/s), increments or reads.
    counter-paced) echo "$base 1 2 BENCH_PREFIX=/counter/n BENCH_OBJECTS=$NAMES BENCH_PACE_MS=$PACE_MS" ;;
    read-paced) echo "$base 1 2 BENCH_PREFIX=/counter/n BENCH_OBJECTS=$NAMES BENCH_PACE_MS=$PACE_MS BENCH_QUERY=?op=get" ;;
    # bench/site: one static file (8.5 KB of JavaScript) answered by the assets in front of the Worker.
    asset) echo "$base$SITE_ASSET $THREADS $CONNS" ;;
    # bench/site: env.KV.get of one seeded key (Workers KV binding, not a Durable Object's storage).
    kv-get) echo "$base/kv/$KV_KEY $THREADS $CONNS" ;;
    kv-get-paced) echo "$base/kv/$KV_KEY 1 2 BENCH_PACE_MS=$PACE_MS" ;;
    *) die "unknown scenario '$2' (hello counter-hot counter-many kv-hot kv-many rpc-hot counter-light counter-paced read-paced asset kv-get kv-get-paced)" ;;
  esac
}

wrk_once() {  # rt scenario seconds -> the BENCH line (empty on failure)
  local url threads conns envs=()
  read -r url threads conns envs <<<"$(scenario_spec "$1" "$2")"
  read -r -a envs <<<"$envs"
  env "${envs[@]}" wrk -t"$threads" -c"$conns" -d"$3s" --timeout 10s -s "$BENCH_DIR/wrk/load.lua" "$url" 2>&1 \
    | tee -a "$OUT/wrk/$1.$2.txt" | grep '^BENCH ' || true
}

profile_start() {  # rt sc rep
  [ "$3" = "${PROFILE_REP:-1}" ] && [[ " $PROFILE " == *" $1:$2 "* ]] && is_cellgate "$1" || return 1
  "$JCMD" "$(jvm_of "$1")" JFR.start name=bench settings=profile >/dev/null 2>&1
}
profile_stop() {  # rt sc
  local jfr=$OUT/profile-$1-$2.jfr
  "$JCMD" "$(jvm_of "$1")" JFR.stop name=bench filename="$jfr" >/dev/null 2>&1 || { log "JFR.stop failed"; return 0; }
  python3 "$BENCH_DIR/tools/jfr_top.py" "$JAVA_HOME/bin/jfr" "$jfr" >"$OUT/profile-$1-$2.txt" 2>&1 \
    && log "profile of $1 $2: $OUT/profile-$1-$2.txt"
}

# The runtimes not being measured must be idle first: a cellgate JVM keeps compiling (Graal) for
# a minute or more after its own runs, and on 2 cores that CPU is taken from the runtime under
# measurement.
others_of() {  # rt -> the runtimes of this load section (LOAD_RTS) other than rt
  local o
  for o in $LOAD_RTS; do [ "$o" = "$1" ] || printf ' %s' "$o"; done
}
others_ticks() { rts_ticks $(others_of "$1"); }
wait_others_idle() { wait_idle "$(others_of "$1")" "before $1"; }  # rt

run_load() {  # rt sc rep
  local rt=$1 sc=$2 rep=$3 pg line c0 c1 s0 s1 st0 st1 l0 profiling=0
  if ! alive "$rt"; then
    record load "rt=$rt" "sc=$sc" "rep=$rep" "rps=0" "requests=0" "failed=dead"
    log "$rt is not running any more: $sc rep$rep skipped ($(grep -E 'SELF-FENCE' "$OUT/logs/$rt.log" | tail -1))"
    return 0
  fi
  pg=$(group_of "$rt")
  wait_others_idle "$rt"
  local o0 o1 others
  o0=$(others_ticks "$rt")
  c0=$(group_ticks "$pg"); s0=$(pids_ticks $(s3_pids)); st0=$(cpu_stall_us); l0=$(loadavg1)
  profile_start "$rt" "$sc" "$rep" && profiling=1
  line=$(wrk_once "$rt" "$sc" "$DURATION")
  c1=$(group_ticks "$pg"); s1=$(pids_ticks $(s3_pids)); st1=$(cpu_stall_us)
  o1=$(others_ticks "$rt")
  [ $profiling = 1 ] && profile_stop "$rt" "$sc"
  if [ -z "$line" ]; then
    log "$rt $sc rep$rep: wrk printed no result (see $OUT/wrk/$rt.$sc.txt)"
    record load "rt=$rt" "sc=$sc" "rep=$rep" "rps=0" "requests=0" "failed=wrk"
    return 0
  fi
  local requests seconds non2xx sockerr p50_us p90_us p99_us max_us conns
  eval "${line#BENCH }"
  conns=$(scenario_spec "$rt" "$sc" | awk '{print $3}')
  local hz rps cpu store stall
  hz=$(getconf CLK_TCK)
  rps=$(awk -v r="$requests" -v s="$seconds" 'BEGIN{printf "%.0f", r / s}')
  cpu=$(awk -v t=$((c1 - c0)) -v r="$requests" -v hz="$hz" 'BEGIN{printf "%.0f", r ? t * 1e6 / hz / r : 0}')
  store=0
  [ "$(base_of_variant "$rt")" = cg-s3 ] && store=$(awk -v t=$((s1 - s0)) -v r="$requests" -v hz="$hz" 'BEGIN{printf "%.0f", r ? t * 1e6 / hz / r : 0}')
  stall=$(awk -v a="$st0" -v b="$st1" -v s="$seconds" 'BEGIN{printf "%.0f", (b - a) / (s * 1e4)}')
  others=$(awk -v t=$((o1 - o0)) -v s="$seconds" -v hz="$hz" 'BEGIN{printf "%.0f", t * 100 / hz / s}')
  record load "rt=$rt" "sc=$sc" "rep=$rep" "rps=$rps" "requests=$requests" "non2xx=$non2xx" "sockerr=$sockerr" \
    "p50_us=$p50_us" "p90_us=$p90_us" "p99_us=$p99_us" "max_us=$max_us" "cpu_us=$cpu" "store_cpu_us=$store" \
    "stall_pct=$stall" "load1=$l0" "conns=$conns" "others_cpu_pct=$others"
  log "$rt $sc rep$rep: $rps req/s p50 $((p50_us / 1000)) ms p99 $((p99_us / 1000)) ms non2xx=$non2xx sockerr=$sockerr cpu ${cpu}us/req (store ${store}) stall ${stall}% load $l0 others ${others}%"
}

# Counter values before the measured runs (after warm-up), per runtime.
declare -A BEFORE
counter_value() {  # rt what
  local base
  base=$(base_of "$1")
  case $2 in
    counter-hot) curl -sf "$base/counter/hot?op=get" ;;
    kv-hot) curl -sf "$base/kv/hot?op=get" ;;
    counter-many) python3 "$BENCH_DIR/tools/cells.py" sum "$base" /counter/n "$NAMES" ;;
    kv-many) python3 "$BENCH_DIR/tools/cells.py" sum "$base" /kv/n "$NAMES" ;;
  esac
}

# Scenarios that increment the objects a check reads (rpc-hot calls the same Counter as counter-hot).
touching() {
  case $1 in
    counter-hot) echo "counter-hot rpc-hot" ;;
    counter-many) echo "counter-many counter-light counter-paced" ;;
    *) echo "$1" ;;
  esac
}

check_counters() {  # rt
  local rt=$1 what sc after sums sent allowed diff verdict ran
  if ! alive "$rt"; then
    record check "rt=$rt" "what=all" "verdict=SKIPPED" "delta=" "acked=" "extra=" "allowed=node not running"
    return 0
  fi
  for what in counter-hot kv-hot counter-many kv-many; do
    ran=0
    for sc in $(touching "$what"); do [[ " $SCENARIOS " == *" $sc "* ]] && ran=1; done
    [ $ran = 1 ] || continue
    after=$(counter_value "$rt" "$what") || after=nan
    # 2xx responses, and what may have been applied without a 2xx reaching wrk: the requests in
    # flight when each run stopped (one per connection) and the ones wrk gave up on (socket errors).
    sums=$(awk -F'\t' -v r="rt=$rt" -v list=" $(touching "$what") " '$1=="load" && $2==r {
      delete f; for(i=2;i<=NF;i++){split($i,kv,"="); f[kv[1]]=kv[2]}
      if (index(list, " " f["sc"] " ") == 0) next
      ok += f["requests"] - f["non2xx"]; extra += f["conns"] + f["sockerr"] } END{print ok+0, extra+0}' "$RAW")
    read -r sent allowed <<<"$sums"
    if [ "$after" = nan ] || [ -z "${BEFORE[$rt.$what]:-}" ]; then
      verdict=FAIL; diff=nan
    else
      diff=$((after - BEFORE[$rt.$what] - sent))
      verdict=FAIL
      [ "$diff" -ge 0 ] && [ "$diff" -le "$allowed" ] && verdict=OK
    fi
    record check "rt=$rt" "what=$what" "verdict=$verdict" "delta=$((${after/nan/0} - ${BEFORE[$rt.$what]:-0}))" "acked=$sent" \
      "extra=$diff" "allowed=0..$allowed"
    log "check $rt $what: $verdict (counter delta - 2xx responses = $diff, allowed 0..$allowed in flight)"
  done
  local spec res
  for spec in "/counter/ 1" "/kv/ 1" "/counter/ 100" "/kv/ 100"; do
    set -- $spec
    res=$(python3 "$BENCH_DIR/tools/cells.py" exact "$(base_of "$rt")" "$1" "$2" "$EXACT_N" "$CONNS" 2>>"$OUT/logs/exact-$rt.log" | tail -1)
    record exact "rt=$rt" "verdict=${res%% *}" "detail=${res#* }"
    log "exact $rt: $res"
  done
}

new_objects_latency() {  # rt: never-seen objects on a warm process, one after the other
  local rt=$1 f k line
  f=$OUT/newdo-$rt.paths
  for k in $(seq "${NEWDO_N:-50}"); do echo "/counter/fresh-$TS-$k"; done >"$f"
  line=$(python3 "$BENCH_DIR/tools/probe.py" stats "$(base_of "$rt")" "$f" 2>>"$OUT/logs/probe.log" || true)
  record newdo "rt=$rt" $line
  log "never-seen objects on warm $rt: $line"
}

# bench/site: the file of the asset scenario, and the KV key the kv-get scenarios read.
SITE_ASSET=/app.js
KV_KEY=bench-key

# Whether a runtime can run a scenario: workerd-disk serves files only.
runs_scenario() {  # rt sc
  [ "$1" != workerd-disk ] || [ "$2" = asset ]
}

# Puts KV_KEY through the Worker's PUT route (the same on every runtime) and reads it back.
seed_kv() {  # rt
  local rt=$1 got
  runs_scenario "$rt" kv-get || return 0
  curl -sf -X PUT --data-binary "@$KV_VALUE_FILE" "$(base_of "$rt")/kv/$KV_KEY" >/dev/null || die "$rt: PUT /kv/$KV_KEY failed"
  got=$(curl -sf "$(base_of "$rt")/kv/$KV_KEY") || die "$rt: GET /kv/$KV_KEY failed after the put"
  [ "$got" = "$(cat "$KV_VALUE_FILE")" ] || die "$rt: GET /kv/$KV_KEY does not answer the value put"
}

# After the runs: the asset's bytes are the file's, and the key still reads as seeded.
check_site() {  # rt
  local rt=$1 want got verdict
  alive "$rt" || { record check "rt=$rt" "what=site" "verdict=SKIPPED" "detail=node not running"; return 0; }
  if [[ " $SCENARIOS " == *" asset "* ]]; then
    want=$(sha256sum <"$BENCH_DIR/site/public${SITE_ASSET}" | cut -c1-64)
    got=$(curl -sf "$(base_of "$rt")$SITE_ASSET" | sha256sum | cut -c1-64)
    verdict=FAIL; [ "$got" = "$want" ] && verdict=OK
    record check "rt=$rt" "what=asset" "verdict=$verdict" "detail=sha256 of GET $SITE_ASSET ${got:0:12}, of the file ${want:0:12}"
    log "check $rt asset: $verdict"
  fi
  if runs_scenario "$rt" kv-get && [[ " $SCENARIOS " == *" kv-get"* ]]; then
    got=$(curl -sf "$(base_of "$rt")/kv/$KV_KEY" || true)
    verdict=FAIL; [ "$got" = "$(cat "$KV_VALUE_FILE")" ] && verdict=OK
    record check "rt=$rt" "what=kv-get" "verdict=$verdict" "detail=GET /kv/$KV_KEY answers the $(wc -c <"$KV_VALUE_FILE")-byte value seeded"
    log "check $rt kv-get: $verdict"
  fi
}

load_section() {
  local all=$SCENARIOS sc worker_sc="" site_sc=""
  for sc in $all; do
    if is_site_scenario "$sc"; then site_sc+=" $sc"; else worker_sc+=" $sc"; fi
  done
  mkdir -p "$OUT/wrk"
  if [ -n "$worker_sc" ]; then
    LOAD_PROJECT=worker STATE=$STATE_ROOT SCENARIOS=${worker_sc# } worker_group
  fi
  if [ -n "$site_sc" ]; then
    LOAD_PROJECT=site STATE=$STATE_ROOT/site SCENARIOS=${site_sc# } site_group
  fi
  SCENARIOS=$all
}

# bench/site on SITE_PEERS and the cellgate variants: deploy, seed the key, warm up, then the
# repetitions (interleaved as in worker_group) and the checks.
site_group() {
  local rts="$SITE_PEERS $CG_VARIANTS" rt sc rep
  [[ " $rts " == *" workerd "* ]] && die "SITE_PEERS: raw workerd cannot run bench/site (no assets, no KV): use miniflare, workerd-disk"
  log "--- bench/site: $SCENARIOS on $rts"
  KV_VALUE_FILE=$OUT/kv-value.json
  # A small JSON document, as a KV value typically is (a session, a feature-flag set): 512 bytes.
  python3 -c 'import json; d={"user":"bench-7f3a","roles":["reader","billing"],"flags":{"beta":True,"theme":"dark"},"pad":""}; d["pad"]="x"*(512-len(json.dumps(d))); print(json.dumps(d), end="")' >"$KV_VALUE_FILE"
  [[ " $rts " == *" cg-s3"[" ."]* ]] && s3_up
  for rt in $rts; do is_cellgate "$rt" && deploy_bundle "$(bucket_of "$rt")"; done
  for rt in $rts; do
    CG_EXTRA_ENV="CELLD_TTL_MS=$LOAD_TTL_MS CELLD_IDLE_EVICT_MS=$LOAD_IDLE_EVICT_MS" start_runtime "$rt"
    record start "rt=$rt" "ms=$START_MS" "phase=load-site"
    log "$rt up in ${START_MS} ms"
  done
  for rt in $rts; do
    alive "$rt" || { log "$rt is not running any more (see its log): no warm-up"; continue; }
    seed_kv "$rt"
    log "$rt: ${WARMUP}s of warm-up per scenario"
    for sc in $SCENARIOS; do runs_scenario "$rt" "$sc" && wrk_once "$rt" "$sc" "$WARMUP" >/dev/null; done
  done
  LOAD_RTS=$rts
  for rep in $(seq "$REPS"); do
    for sc in $SCENARIOS; do
      for rt in $rts; do
        runs_scenario "$rt" "$sc" || continue
        run_load "$rt" "$sc" "$rep"
        sleep 1
      done
    done
  done
  for rt in $rts; do check_site "$rt"; done
  for rt in $rts; do stop_runtime "$rt"; done
}

# bench/worker on PEERS and the cellgate variants.
worker_group() {
  local rts="$PEERS $CG_VARIANTS" rt sc rep
  [[ " $rts " == *" cg-s3"[" ."]* ]] && s3_up
  for rt in $rts; do is_cellgate "$rt" && deploy_bundle "$(bucket_of "$rt")"; done
  for rt in $rts; do
    # A longer lease than the default: on a starved machine the loopback S3 server can stall for
    # more than 10 s, and a node whose renewal does not land in time self-fences (as designed).
    # The lease length does not change the request path (renewals run every TTL/3 in the background).
    CG_EXTRA_ENV="CELLD_TTL_MS=$LOAD_TTL_MS CELLD_IDLE_EVICT_MS=$LOAD_IDLE_EVICT_MS" start_runtime "$rt"
    record start "rt=$rt" "ms=$START_MS" "phase=load"
    log "$rt up in ${START_MS} ms"
  done
  for rt in $rts; do
    alive "$rt" || { log "$rt is not running any more (see its log): no warm-up"; continue; }
    log "$rt: creating the $NAMES objects of the *-many scenarios, then ${WARMUP}s of warm-up per route"
    python3 "$BENCH_DIR/tools/cells.py" fill "$(base_of "$rt")" /counter/n 0 "$NAMES" 16 >/dev/null || log "$rt: some counter objects failed"
    python3 "$BENCH_DIR/tools/cells.py" fill "$(base_of "$rt")" /kv/n 0 "$NAMES" 16 >/dev/null || log "$rt: some kv objects failed"
    for sc in $SCENARIOS; do wrk_once "$rt" "$sc" "$WARMUP" >/dev/null; done
  done
  for rt in $rts; do
    for sc in counter-hot kv-hot counter-many kv-many; do
      BEFORE[$rt.$sc]=$(counter_value "$rt" "$sc") || BEFORE[$rt.$sc]=""
    done
  done
  LOAD_RTS=$rts
  for rep in $(seq "$REPS"); do
    for sc in $SCENARIOS; do
      for rt in $rts; do
        run_load "$rt" "$sc" "$rep"
        sleep 1
      done
    done
  done
  for rt in $rts; do new_objects_latency "$rt"; done
  for rt in $rts; do check_counters "$rt"; done
  for rt in $rts; do stop_runtime "$rt"; done
}
