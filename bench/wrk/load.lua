-- wrk script of every load scenario.
--   BENCH_PREFIX unset: every request goes to the path on wrk's command line (one hot object).
--   BENCH_PREFIX=/counter/n BENCH_OBJECTS=1000: each request picks object <prefix><k>, k uniform
--   in [0, BENCH_OBJECTS), so the load spreads over that many Durable Objects.
--   BENCH_QUERY=?op=get: appended to every such request (reads instead of increments).
--   BENCH_PACE_MS=10: each connection waits this long after a response before its next request,
--   so the offered load stays far below capacity (a closed loop with a think time, not a saturating one);
--   wrk starts a request's latency clock when it writes the request, so the pause is not counted.
-- At the end one machine-readable line:
--   BENCH requests=.. seconds=.. non2xx=.. sockerr=.. p50_us=.. p90_us=.. p99_us=.. max_us=..

local prefix = os.getenv("BENCH_PREFIX")
local objects = tonumber(os.getenv("BENCH_OBJECTS") or "1000")
local query = os.getenv("BENCH_QUERY") or ""
local pace_ms = tonumber(os.getenv("BENCH_PACE_MS") or "0")
local next_id = 0

function setup(thread)
  next_id = next_id + 1
  thread:set("id", next_id)
end

function init(args)
  -- a different sequence per thread and per run
  math.randomseed(os.time() + 1000003 * (id or 0))
end

if prefix ~= nil then
  function request()
    return wrk.format("GET", prefix .. math.random(0, objects - 1) .. query)
  end
end

if pace_ms > 0 then
  function delay()
    return pace_ms
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH requests=%d seconds=%.3f non2xx=%d sockerr=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d\n",
    summary.requests, summary.duration / 1e6, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
