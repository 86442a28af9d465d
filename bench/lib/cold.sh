# Cold paths (sourced by run.sh).
#
# 1. Process start -> first /hello, first request to a never-seen object right after start, and the
#    time an idle node takes to exit on SIGTERM: COLD_REPS fresh processes of workerd and cellgate
#    (file bucket, deployment already in it, empty node work dir each time).
# 2. A two-node fleet on loopback S3 (cg-a, cg-b; cg-b evicts cells idle for 1 s):
#    forwarding overhead, re-activation after idle eviction, release rate at shutdown (cg-a holds
#    RELEASE_CELLS cells, SIGTERM), activation from S3 of those released cells on cg-b (which
#    never held them: a full restore), and takeover after SIGKILL of the owner.
#
# Rows: coldstart, fwd, reactivate, release, activate, takeover (see report.py).

COLD_REPS=${COLD_REPS:-3}
RELEASE_CELLS=${RELEASE_CELLS:-1000}
ACTIVATE_N=${ACTIVATE_N:-300}
EVICT_N=${EVICT_N:-200}
TAKEOVER_REPS=${TAKEOVER_REPS:-3}
FLEET_TTL_MS=${FLEET_TTL_MS:-10000}
FWD_WARM_S=${FWD_WARM_S:-90}
FWD_ROUNDS=${FWD_ROUNDS:-3}

cold_starts() {
  local rt i first again stop_ms t0 base
  deploy_bundle "$(bucket_of cg-cold)"
  for rt in ${COLD_RUNTIMES:-workerd cg-cold}; do
    base=$(base_of "$rt")
    for i in $(seq "$COLD_REPS"); do
      rm -rf "$STATE/$rt/node" "$STATE/$rt/do"
      start_runtime "$rt"
      read -r first _ < <(python3 "$BENCH_DIR/tools/probe.py" fresh "$base" "/counter/cold-$TS-$i")
      read -r again _ < <(python3 "$BENCH_DIR/tools/probe.py" fresh "$base" "/counter/cold-$TS-$i")
      t0=$(date +%s%N)
      stop_runtime "$rt" 60
      stop_ms=$((($(date +%s%N) - t0) / 1000000))
      record coldstart "rt=$rt" "rep=$i" "start_ms=$START_MS" "first_object_ms=$first" "same_again_ms=$again" "sigterm_exit_ms=$stop_ms"
      log "$rt cold #$i: start->hello ${START_MS} ms, first new object ${first} ms, again ${again} ms, SIGTERM->exit ${stop_ms} ms"
    done
  done
}

# Value of one key of the last JSON log line with event $2 in node $1's log.
log_event_field() {  # rt event key
  # A node that died before the event (self-fenced mid-drain) has no such line: nan, not an abort.
  { grep "\"event\":\"$2\"" "$OUT/logs/$1.log" || true; } | tail -1 | python3 -c "import json,sys; l=sys.stdin.read().strip(); print(json.loads(l).get('$3','nan') if l else 'nan')"
}

paths_file() {  # name prefix from to [query] -> file with one path a line
  local f=$OUT/$1.paths k
  for k in $(seq "$3" $(($4 - 1))); do echo "$2$k${5:+?$5}"; done >"$f"
  echo "$f"
}

fleet_start() {  # rt [extra CELLD_* settings]
  CG_EXTRA_ENV="CELLD_TTL_MS=$FLEET_TTL_MS ${2:-}" start_runtime "$1"
  record start "rt=$1" "ms=$START_MS" "phase=fleet"
  log "$1 up in ${START_MS} ms"
  wrk -t1 -c4 -d"${FLEET_WARMUP:-5}s" "$(base_of "$1")/hello" >/dev/null 2>&1 || true
  python3 "$BENCH_DIR/tools/cells.py" fill "$(base_of "$1")" "/counter/warm-$1-$SECONDS-" 0 20 4 >/dev/null 2>&1 || true
}

# A fleet node that died (e.g. self-fenced because its lease renewal did not land in time on an
# overloaded machine) is a finding: record why, then start it again so the next step can run.
ensure_up() {  # rt [extra settings]
  alive "$1" && return 0
  local why
  why=$(grep -E 'SELF-FENCE|"event":"node.stopped"' "$OUT/logs/$1.log" | tail -2 | tr '\n\t' '  ' | cut -c1-300)
  record note "rt=$1" "what=node died before a step" "detail=${why:-no stop line in its log}"
  log "$1 is not running (${why:-?}); starting it again"
  rm -f "$RUN/$1.pid"
  fleet_start "$@"
}

# One wrk connection, one request at a time, for FWD_S seconds: 'rps=.. p50_ms=.. p90_ms=.. p99_ms=..'.
wrk_sequential() {  # url -> load.lua's BENCH line without its tag (requests, seconds, latencies in us)
  env -u BENCH_PREFIX wrk -t1 -c1 -d"${FWD_S:-10}s" -s "$BENCH_DIR/wrk/load.lua" "$1" 2>&1 | sed -n 's/^BENCH //p'
}

# The steady cost of a forward: both paths warmed under load (FWD_WARM_S seconds each), both nodes
# idle again, then FWD_ROUNDS alternating rounds of sequential reads through each. A fresh node
# serves its first thousands of requests in the JS interpreter and keeps compiling for minutes,
# the forwarding node most: 300 reads right after 3,000 others measured +10 ms p50, the same
# nodes once idle +0.1 ms (wrk) to +0.5 ms (the Python client below, which leaves gaps between
# requests in which the node's threads park).
forwarding_overhead() {
  local path url line round f=$OUT/fwd.paths
  local -A url_of=([local]="$(base_of cg-a)/counter/fwd-$TS?op=get" [forwarded]="$(base_of cg-b)/counter/fwd-$TS?op=get")
  for path in local forwarded; do wrk -t1 -c4 -d"${FWD_WARM_S}s" "${url_of[$path]}" >/dev/null 2>&1 || true; done
  wait_idle "cg-a cg-b" "before the forwarding rounds"
  for round in $(seq "$FWD_ROUNDS"); do
    for path in local forwarded; do
      line=$(wrk_sequential "${url_of[$path]}" || true)
      record fwd "path=$path" "tool=wrk" "round=$round" $line
      log "reads via ${path/local/the owner}, wrk -c1, round $round: $line"
    done
  done
  for _ in $(seq "${FWD_N:-300}"); do echo "/counter/fwd-$TS?op=get"; done >"$f"
  for path in local forwarded; do
    line=$(python3 "$BENCH_DIR/tools/probe.py" stats "${url_of[$path]%%/counter/*}" "$f" 1 2>>"$OUT/logs/probe.log" || true)
    record fwd "path=$path" "tool=probe" $line
    log "reads via ${path/local/the owner}, probe.py: $line"
  done
}

fleet_paths() {
  s3_up
  deploy_bundle "$(bucket_of cg-a)"
  local B_ENV="CELLD_IDLE_EVICT_MS=1000" a b line f res
  fleet_start cg-a
  fleet_start cg-b "$B_ENV"

  # Forwarding: one object owned by cg-a, read through cg-a (local) and through cg-b (forwarded).
  curl -sf "$(base_of cg-a)/counter/fwd-$TS" >/dev/null
  forwarding_overhead

  # Re-activation after idle eviction on the same node.
  ensure_up cg-b "$B_ENV"
  python3 "$BENCH_DIR/tools/cells.py" fill "$(base_of cg-b)" "/counter/ev-$TS-" 0 "$EVICT_N" 8 >/dev/null
  for _ in $(seq 60); do [ "$(state_field cg-b resident)" -le 5 ] && break; sleep 1; done
  local before_act
  before_act=$(grep -c '"event":"cell.activated"' "$OUT/logs/cg-b.log" || true)
  f=$(paths_file evict "/counter/ev-$TS-" 0 "$EVICT_N" "op=get")
  line=$(python3 "$BENCH_DIR/tools/probe.py" stats "$(base_of cg-b)" "$f" 1 2>>"$OUT/logs/probe.log" || true)
  local reused fresh
  reused=$(tail -n +1 "$OUT/logs/cg-b.log" | grep '"event":"cell.activated"' | tail -n +$((before_act + 1)) | grep -c '"reused_local":true' || true)
  fresh=$(tail -n +1 "$OUT/logs/cg-b.log" | grep '"event":"cell.activated"' | tail -n +$((before_act + 1)) | grep -c '"reused_local":false' || true)
  record reactivate $line "reused_local=$reused" "restored=$fresh"
  log "re-activation after idle eviction (same node): $line reused_local=$reused restored=$fresh"

  # Release at shutdown: cg-a holds RELEASE_CELLS cells (1 KB each), then SIGTERM.
  ensure_up cg-a
  res=$(python3 "$BENCH_DIR/tools/cells.py" fill "$(base_of cg-a)" "/counter/rel-$TS-" 0 "$RELEASE_CELLS" 16 pad=1024 2>>"$OUT/logs/probe.log" || true)
  log "cg-a: created $RELEASE_CELLS cells: $res"
  local resident t0 exit_ms
  resident=$(state_field cg-a resident)
  t0=$(date +%s%N)
  stop_runtime cg-a 90
  exit_ms=$((($(date +%s%N) - t0) / 1000000))
  local released failed drain_ms
  released=$(log_event_field cg-a shutdown.drained released)
  failed=$(log_event_field cg-a shutdown.drained failed)
  drain_ms=$(log_event_field cg-a shutdown.drained ms)
  record release "resident=$resident" "released=$released" "failed=$failed" "drain_ms=$drain_ms" "sigterm_exit_ms=$exit_ms" \
    "cells_per_s=$(awk -v n="$released" -v ms="$drain_ms" 'BEGIN{printf "%.0f", (ms > 0 ? n * 1000 / ms : 0)}')"
  log "release at shutdown: resident=$resident released=$released failed=$failed drain ${drain_ms} ms, SIGTERM->exit ${exit_ms} ms"

  # Activation from S3 on a node that never held the cells (full restore of the released cells).
  ensure_up cg-b "$B_ENV"
  f=$(paths_file activate "/counter/rel-$TS-" 0 "$ACTIVATE_N" "op=get")
  line=$(python3 "$BENCH_DIR/tools/probe.py" stats "$(base_of cg-b)" "$f" 1 2>>"$OUT/logs/probe.log" || true)
  record activate $line
  log "activation from S3 on another node: $line"

  # Takeover after SIGKILL of the owner (the whole process group: launcher and JIT child).
  local rep v0 took
  for rep in $(seq "$TAKEOVER_REPS"); do
    rm -rf "$STATE/cg-a/node"
    ensure_up cg-b "$B_ENV"
    fleet_start cg-a
    if ! v0=$(curl -sf --max-time 60 "$(base_of cg-a)/counter/takeover-$TS-$rep"); then
      record takeover "rep=$rep" "ttl_ms=$FLEET_TTL_MS" "ms=nan" "answer=owner did not answer before the kill"
      stop_runtime cg-a 5
      continue
    fi
    t0=$(date +%s%N)
    kill -KILL -- "-$(group_of cg-a)" 2>/dev/null
    wait "$(group_of cg-a)" 2>/dev/null || true
    rm -f "$RUN/cg-a.pid"
    took=$(python3 "$BENCH_DIR/tools/probe.py" until "$(base_of cg-b)" "/counter/takeover-$TS-$rep" "$t0" 60 || true)
    record takeover "rep=$rep" "ttl_ms=$FLEET_TTL_MS" "ms=${took%% *}" "value_before=$v0" "answer=$(echo "$took" | cut -d' ' -f3)" \
      "$(echo "$took" | awk '{print $NF}')"
    log "takeover #$rep after SIGKILL: ${took} (value before the kill: $v0; expect $((v0 + 1)))"
  done
  stop_runtime cg-b 90
}

cold_section() {
  cold_starts
  fleet_paths
}
