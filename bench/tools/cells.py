#!/usr/bin/env python3
"""Many Durable Objects at once over a few keep-alive connections (standard library only).

  cells.py sum BASE PREFIX COUNT [CONC]
      Read counters PREFIX0 .. PREFIX<COUNT-1> (GET ...?op=get) and print their sum.
  cells.py fill BASE PREFIX FROM TO CONC [QUERY]
      One increment on each of PREFIX<FROM> .. PREFIX<TO-1> (GET PREFIX<i>?QUERY) with CONC
      connections; print 'ok=.. failed=.. seconds=.. per_s=..'. Exit 1 if any failed.
  cells.py exact BASE PREFIX K N C
      Linearizability check under concurrency: exactly N increments over K fresh objects with C
      connections, then for every object (a) the returned values are exactly v0+1 .. v0+ok, no
      gap and no duplicate, and (b) the stored value equals v0+ok. A request that failed may or
      may not have been applied: each widens the allowed range by one. Prints 'OK ...' or 'FAIL ...'.
"""
import collections
import http.client
import random
import sys
import threading
import time
import urllib.parse


def connect(base):
    u = urllib.parse.urlsplit(base)
    return http.client.HTTPConnection(u.hostname, u.port, timeout=60)


def get(c, path):
    c.request("GET", path)
    r = c.getresponse()
    return r.status, r.read().decode(errors="replace")


def run_parallel(base, conc, items, work):
    """Hands items out to `conc` threads, each with its own keep-alive connection to `base`;
    when `work(conn, item)` raises a connection error the item is counted failed and the
    thread reconnects."""
    lock = threading.Lock()
    it = iter(items)

    def loop():
        c = None
        while True:
            with lock:
                item = next(it, None)
            if item is None:
                return
            try:
                if c is None:
                    c = connect(base)
                work(c, item)
            except (OSError, http.client.HTTPException) as e:
                errors.append((item, repr(e)))
                c = None

    errors = []
    threads = [threading.Thread(target=loop) for _ in range(conc)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def cmd_sum(base, prefix, count, conc=8):
    total, lock, bad = [0], threading.Lock(), []

    def work(c, k):
        st, body = get(c, f"{prefix}{k}?op=get")
        if st != 200:
            bad.append(f"{k}: {st} {body[:80]}")
            return
        with lock:
            total[0] += int(body)

    errors = run_parallel(base, conc, range(count), work)
    if errors or bad:
        print("sum failed:", ([f"{k}: {e}" for k, e in errors] + bad)[:5], file=sys.stderr)
        return 1
    print(total[0])
    return 0


def cmd_fill(base, prefix, lo, hi, conc, query=""):
    bad = []
    q = ("?" + query) if query else ""

    def work(c, k):
        st, body = get(c, f"{prefix}{k}{q}")
        if st != 200:
            bad.append(f"{k}: {st} {body.strip()[:120]}")

    t = time.perf_counter()
    errors = run_parallel(base, conc, range(lo, hi), work)
    # A keep-alive connection the server closed fails the next request on it: try those once
    # more on fresh connections (a fill only needs each object to exist).
    if errors:
        errors = [f"{k}: {e}" for k, e in run_parallel(base, conc, [k for k, _ in errors], work)]
    el = time.perf_counter() - t
    failed = len(errors) + len(bad)
    n = hi - lo
    print(f"ok={n - failed} failed={failed} seconds={el:.2f} per_s={n / el:.1f}")
    for e in (errors + bad)[:5]:
        print(f"  failed: {e}", file=sys.stderr)
    return 0 if failed == 0 else 1


def cmd_exact(base, prefix, k, n, conc):
    tag = f"exact{time.time_ns() % 10**12}"
    names = [f"{tag}-{i}" for i in range(k)]
    c0 = connect(base)
    before = {m: int(get(c0, f"{prefix}{m}?op=get")[1]) for m in names}
    c0.close()
    plan = [random.choice(names) for _ in range(n)]
    got = {m: [] for m in names}
    bad = []

    def work(c, m):
        st, body = get(c, f"{prefix}{m}")
        if st == 200:
            got[m].append(int(body))
        else:
            bad.append((m, f"{st} {body.strip()[:80]}"))

    t = time.perf_counter()
    errors = run_parallel(base, conc, plan, work)
    el = time.perf_counter() - t
    # A request without an answer (connection error) or with an error status may or may not have
    # been applied: each one widens the range the object's values may reach by one.
    unknown = collections.Counter(m for m, _ in errors)
    for m, _st in bad:
        unknown[m] += 1
    c1 = connect(base)
    problems, ok = [], 0
    for m in names:
        vals = sorted(got[m])
        ok += len(vals)
        lo, hi = before[m] + len(vals), before[m] + len(vals) + unknown[m]
        if len(set(vals)) != len(vals):
            problems.append(f"{m}: an increment value was returned twice")
        elif vals and (vals[0] < before[m] + 1 or vals[-1] > hi):
            problems.append(f"{m}: returned values outside {before[m] + 1}..{hi}")
        stored = int(get(c1, f"{prefix}{m}?op=get")[1])
        if not lo <= stored <= hi:
            problems.append(f"{m}: stored {stored}, expected {lo}" + (f"..{hi}" if hi > lo else "") + " from the acknowledged increments")
    verdict = "OK" if not problems else "FAIL"
    print(f"{verdict} prefix={prefix} objects={k} sent={n} acked={ok} failed={len(bad) + len(errors)} "
          f"mismatches={len(problems)} ({n / el:.0f} req/s)" + ("" if not problems else " " + "; ".join(problems[:3])))
    for m, e in (errors + bad)[:3]:
        print(f"  failed: {m}: {e}", file=sys.stderr)
    return 0 if verdict == "OK" else 1


def main(a):
    if len(a) in (4, 5) and a[0] == "sum":
        return cmd_sum(a[1], a[2], int(a[3]), *(int(x) for x in a[4:]))
    if len(a) in (6, 7) and a[0] == "fill":
        return cmd_fill(a[1], a[2], int(a[3]), int(a[4]), int(a[5]), *(a[6:]))
    if len(a) == 6 and a[0] == "exact":
        return cmd_exact(a[1], a[2], int(a[3]), int(a[4]), int(a[5]))
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
