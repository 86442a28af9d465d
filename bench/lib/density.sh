# Density (sourced by run.sh): how many resident counter cells (1 KB of state each) one node
# holds in a DENSITY_HEAP heap, and the heap each one costs.
#
# The node runs with memory shedding off (CELLD_MAX_RSS_MB=0) and idle eviction far away, so
# every cell created stays resident. Cells are created in steps of DENSITY_STEP; after each step
# a full GC runs and the heap used after it is read with `jcmd GC.heap_info`, with the RSS and
# the node's resident count. It stops at DENSITY_MAX cells, when the heap after GC passes
# DENSITY_STOP_PCT of the maximum, when creations fail, when the node stops counting every cell
# as resident (shedding), or after DENSITY_MAX_S seconds.
#
# Rows: density cells= resident= heap_mb= rss_mb= per_s= (one per step); density_end reason=...

DENSITY_HEAP=${DENSITY_HEAP:-4g}
DENSITY_STEP=${DENSITY_STEP:-1000}
DENSITY_MAX=${DENSITY_MAX:-6000}
DENSITY_MAX_S=${DENSITY_MAX_S:-1800}
DENSITY_STOP_PCT=${DENSITY_STOP_PCT:-90}
DENSITY_CONC=${DENSITY_CONC:-8}

density_section() {
  local rt=cg-dense base heap rss resident res per_s cells=0 reason=max t_start max_mb fails
  base=$(base_of "$rt")
  deploy_bundle "$(bucket_of "$rt")"
  # The load nodes' longer lease (LOAD_TTL_MS): on a starved machine a full GC of a 4 GB heap plus
  # the fill can keep the renewal from landing within the default 10 s, and the node self-fences.
  CG_JAVA_OPTS="-Xmx$DENSITY_HEAP" CG_EXTRA_ENV="CELLD_MAX_RSS_MB=0 CELLD_IDLE_EVICT_MS=86400000 CELLD_TTL_MS=$LOAD_TTL_MS" start_runtime "$rt"
  record start "rt=$rt" "ms=$START_MS" "phase=density"
  wrk -t1 -c4 -d5s "$base/hello" >/dev/null 2>&1 || true
  max_mb=$("$JCMD" "$(jvm_of "$rt")" VM.flags 2>/dev/null | tr ' ' '\n' | sed -n 's/^-XX:MaxHeapSize=//p' | awk '{printf "%.0f", $1/1048576}')
  heap=$(heap_after_gc_mb "$rt"); rss=$(rss_mb "$rt")
  record density "cells=0" "resident=$(state_field "$rt" resident)" "heap_mb=$heap" "rss_mb=$rss" "per_s=0" "max_heap_mb=$max_mb"
  log "density: baseline heap after GC ${heap} MB, RSS ${rss} MB, max heap ${max_mb} MB"
  t_start=$SECONDS
  while [ "$cells" -lt "$DENSITY_MAX" ]; do
    res=$(python3 "$BENCH_DIR/tools/cells.py" fill "$base" /counter/dense- "$cells" $((cells + DENSITY_STEP)) "$DENSITY_CONC" pad=1024 2>>"$OUT/logs/probe.log" || true)
    cells=$((cells + DENSITY_STEP))
    fails=$(echo "$res" | sed -n 's/.*failed=\([0-9]*\).*/\1/p')
    per_s=$(echo "$res" | sed -n 's/.*per_s=\([0-9.]*\).*/\1/p')
    # A node that died (self-fenced) answers nothing: record nan and let the check below stop.
    heap=$(heap_after_gc_mb "$rt" || echo nan); rss=$(rss_mb "$rt" || echo nan)
    resident=$(state_field "$rt" resident || echo 0)
    record density "cells=$cells" "resident=$resident" "heap_mb=$heap" "rss_mb=$rss" "per_s=$per_s" "failed=${fails:-nan}"
    log "density: $cells cells created ($res), resident $resident, heap after GC ${heap} MB, RSS ${rss} MB"
    if ! alive "$rt"; then reason="node died"; break; fi
    if [ "${fails:-1}" -gt $((DENSITY_STEP / 100)) ]; then reason="creations failed"; break; fi
    if [ "$resident" -lt $((cells - fails)) ]; then reason="shedding started (resident < created)"; break; fi
    if awk -v h="$heap" -v m="$max_mb" -v p="$DENSITY_STOP_PCT" 'BEGIN{exit !(h > m * p / 100)}'; then reason="heap ${DENSITY_STOP_PCT}% full"; break; fi
    if [ $((SECONDS - t_start)) -gt "$DENSITY_MAX_S" ]; then reason="time limit ${DENSITY_MAX_S}s"; break; fi
  done
  # Every cell still holds its state.
  local sample
  sample=$(paths_file dense-check /counter/dense- 0 "$cells" op=get)
  shuf -n 200 "$sample" >"$sample.200"
  res=$(python3 "$BENCH_DIR/tools/probe.py" stats "$base" "$sample.200" 1 2>>"$OUT/logs/probe.log" || true)
  record density_end "reason=$reason" "cells=$cells" "seconds=$((SECONDS - t_start))" "readback=$(echo "$res" | tr ' ' ',')"
  log "density: stopped ($reason) at $cells cells; read-back of 200: $res"
  stop_runtime "$rt" 120
}
