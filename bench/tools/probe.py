#!/usr/bin/env python3
"""Small HTTP timing tools for the bench (standard library only).

  probe.py ready URL BODY T0_NS PID TIMEOUT_S
      Poll URL until it answers 200 (and BODY, unless BODY is '-'); print the milliseconds since
      T0_NS (a `date +%s%N` taken just before the server was spawned). Exit 2 if PID died,
      3 on timeout.
  probe.py seq BASE PATH...
      GET each PATH in turn on ONE keep-alive connection; print 'ms status body' per path.
  probe.py fresh BASE PATH...
      Same, but each request on a new TCP connection (what a first visitor pays).
  probe.py stats BASE FILE [EXPECT]
      GET every path listed in FILE (one a line) in turn on one keep-alive connection; print
      'n=.. ok=.. wrong=.. p50_ms=.. p90_ms=.. p99_ms=.. max_ms=.. mean_ms=..' over the 2xx
      answers; with EXPECT, a 2xx whose body differs counts as wrong (exit 1).
  probe.py until BASE PATH T0_NS TIMEOUT_S
      GET PATH every 20 ms (fresh connection each time) until a 2xx; print 'ms status body' where
      ms counts from T0_NS. Non-2xx answers and connection errors are counted, not fatal.
"""
import http.client
import os
import sys
import time
import urllib.parse


def conn(base, timeout=60):
    u = urllib.parse.urlsplit(base)
    return http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)


def get(c, path):
    c.request("GET", path)
    r = c.getresponse()
    return r.status, r.read().decode(errors="replace")


def pct(sorted_vals, p):
    if not sorted_vals:
        return float("nan")
    k = max(0, min(len(sorted_vals) - 1, int(round(p / 100.0 * len(sorted_vals) + 0.5)) - 1))
    return sorted_vals[k]


def process_gone(pid):
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (ProcessLookupError, FileNotFoundError):
        return True


def ready(url, body, t0_ns, pid, timeout_s):
    u = urllib.parse.urlsplit(url)
    deadline = t0_ns / 1e9 + timeout_s
    while True:
        try:
            c = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
            st, got = get(c, u.path or "/")
            c.close()
            if st == 200 and (body == "-" or got == body):
                print(f"{(time.time_ns() - t0_ns) / 1e6:.1f}")
                return 0
        except OSError:
            pass
        if process_gone(pid):
            print("server exited while starting", file=sys.stderr)
            return 2
        if time.time() > deadline:
            print(f"no 200 from {url} within {timeout_s}s", file=sys.stderr)
            return 3
        time.sleep(0.005)


def seq(base, paths, fresh):
    c = None
    for p in paths:
        t = time.perf_counter()
        if c is None or fresh:
            c = conn(base)
        st, body = get(c, p)
        ms = (time.perf_counter() - t) * 1000
        if fresh:
            c.close()
        print(f"{ms:.2f} {st} {body.strip()[:80]}")
    return 0


def stats(base, path_file, expect=None):
    with open(path_file) as f:
        paths = [line.strip() for line in f if line.strip()]
    c = conn(base)
    times, bad, wrong = [], [], []
    for p in paths:
        t = time.perf_counter()
        try:
            st, body = get(c, p)
        except (OSError, http.client.HTTPException) as e:
            bad.append(repr(e))
            c = conn(base)
            continue
        ms = (time.perf_counter() - t) * 1000
        if 200 <= st < 300:
            times.append(ms)
            if expect is not None and body.strip() != expect:
                wrong.append(f"{p}: got {body.strip()[:40]!r}, want {expect!r}")
        else:
            bad.append(f"{st} {body.strip()[:120]}")
    s = sorted(times)
    mean = sum(s) / len(s) if s else float("nan")
    print(f"n={len(paths)} ok={len(s)} wrong={len(wrong)} p50_ms={pct(s, 50):.2f} p90_ms={pct(s, 90):.2f} p99_ms={pct(s, 99):.2f} "
          f"max_ms={(s[-1] if s else float('nan')):.2f} mean_ms={mean:.2f}")
    for b in (bad + wrong)[:5]:
        print(f"  failed: {b}", file=sys.stderr)
    return 0 if not bad and not wrong else 1


def until(base, path, t0_ns, timeout_s):
    failures = 0
    while True:
        try:
            c = conn(base, timeout=5)
            st, body = get(c, path)
            c.close()
            if 200 <= st < 300:
                print(f"{(time.time_ns() - t0_ns) / 1e6:.1f} {st} {body.strip()[:80]} failures={failures}")
                return 0
            failures += 1
        except (OSError, http.client.HTTPException):
            failures += 1
        if (time.time_ns() - t0_ns) / 1e9 > timeout_s:
            print(f"nan 0 timeout failures={failures}")
            return 3
        time.sleep(0.02)


def main(a):
    if len(a) >= 6 and a[0] == "ready":
        return ready(a[1], a[2], int(a[3]), int(a[4]), float(a[5]))
    if len(a) >= 3 and a[0] in ("seq", "fresh"):
        return seq(a[1], a[2:], a[0] == "fresh")
    if len(a) in (3, 4) and a[0] == "stats":
        return stats(a[1], a[2], *a[3:])
    if len(a) == 5 and a[0] == "until":
        return until(a[1], a[2], int(a[3]), float(a[4]))
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
