#!/usr/bin/env python3
"""Forwarding overhead of two cellgate builds, side by side in one run.

    python3 bench/tools/forward_ab.py --base /path/to/old/checkout --new . [--rounds 5] [--warm-s 60] [--round-s 10]
        [--path /rpc/fwd?op=get]

Each build gets its own two-node fleet on its own file bucket (the bench Worker pushed with that
build's deploy-tool): node a owns one counter object, node b forwards to it. Both fleets are warmed
under load in interleaved 10 s slices (wrk -t1 -c4, WARM_S in all on each path of each build, so
neither build's JIT gets more idle time to finish compiling than the other's), then both are left
idle until their processes stop using CPU (at most IDLE_MAX_S), then ROUNDS rounds alternate
between the builds (the order flips every round), each round one `wrk -t1 -c1` of ROUND_S seconds
on the local path (through a) and one on the forwarded path (through b), reads only (PATH: by default
/counter/fwd?op=get, a stub.fetch; /rpc/fwd?op=get reads the same object over RPC).
Per round: p50/p90/p99, and the CPU time per request of the two nodes' process groups (launcher
and JIT child), which a loaded machine distorts less than latency. The overhead of a round is
forwarded p50 - local p50 (and forwarded CPU - local CPU); the summary gives the medians over
rounds per build and the difference between the builds. Both builds must be built
(gateway/target/gateway.jar, the deploy-tool launcher). Every node runs in its own process group
and is stopped at the end.
"""
import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
JAVA = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")


def log(msg):
    print(time.strftime("[%H:%M:%S] ") + msg, file=sys.stderr, flush=True)


def wait_ok(url, timeout_s):
    end = time.time() + timeout_s
    while time.time() < end:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                if r.status == 200:
                    return r.read().decode()
        except Exception:
            pass
        time.sleep(0.2)
    raise SystemExit("no 200 from " + url + " within " + str(timeout_s) + " s")


def group_cpu_s(pgid):
    """User + system CPU seconds of every live process in a process group."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # field 5 of stat: the process group
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def wrk(url, seconds, conns, script):
    """The BENCH line of bench/wrk/load.lua as a dict of numbers."""
    out = subprocess.run(["wrk", "-t1", "-c" + str(conns), "-d" + str(seconds) + "s", "-s", script, url],
                         capture_output=True, text=True, env={k: v for k, v in os.environ.items() if not k.startswith("BENCH_")})
    m = re.search(r"^BENCH (.*)$", out.stdout, re.M)
    if not m:
        raise SystemExit("wrk printed no BENCH line for " + url + ":\n" + out.stdout + out.stderr)
    return {k: float(v) for k, v in (kv.split("=") for kv in m.group(1).split())}


class Fleet:
    def __init__(self, label, src, work, port):
        self.label, self.src, self.work, self.port = label, os.path.abspath(src), os.path.join(work, label), port
        self.procs = []

    def pgid(self, node):
        return self.procs[0 if node == "a" else 1].pid

    def cpu_s(self):
        return group_cpu_s(self.pgid("a")) + group_cpu_s(self.pgid("b"))

    def url(self, node, path):
        return "http://127.0.0.1:%d%s" % (self.port + (0 if node == "a" else 10), path)

    def start(self, ttl_ms):
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        bucket = "file://" + os.path.join(self.work, "bucket")
        log("%s: deploy-tool push bench/worker (%s)" % (self.label, self.src))
        with open(os.path.join(self.work, "deploy.log"), "w") as f:
            subprocess.run([os.path.join(self.src, "deploy-tool", "deploy-tool"), "push", os.path.join(BENCH_DIR, "worker"),
                            "--bucket", bucket, "--progress", "off"], stdout=f, stderr=subprocess.STDOUT, check=True)
        for node, off in (("a", 0), ("b", 10)):
            env = dict(os.environ, CELLD_BUCKET=bucket, CELLD_NODE=self.label + "-" + node,
                       CELLD_ADDR="127.0.0.1:%d" % (self.port + off), CELLD_INTERNAL_ADDR="127.0.0.1:%d" % (self.port + off + 1),
                       CELLD_WATCH=os.path.join(self.work, node), CELLD_TTL_MS=str(ttl_ms), CELLD_LOG_FORMAT="json")
            logf = open(os.path.join(self.work, node + ".log"), "w")
            self.procs.append(subprocess.Popen([JAVA, "-Xmx1g", "-jar", os.path.join(self.src, "gateway", "target", "gateway.jar")],
                                               env=env, stdout=logf, stderr=subprocess.STDOUT, start_new_session=True))
        for node in ("a", "b"):
            wait_ok(self.url(node, "/hello"), 300)
        wait_ok(self.url("a", "/counter/fwd"), 60)  # a owns the object
        log("%s: up" % self.label)

    def stop(self):
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in self.procs:
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="checkout of the build to compare against")
    ap.add_argument("--new", required=True, help="checkout of the build under test")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warm-s", type=int, default=60)
    ap.add_argument("--round-s", type=int, default=10)
    ap.add_argument("--idle-max-s", type=int, default=180, help="longest wait for both fleets to go idle after the warm-up")
    ap.add_argument("--ttl-ms", type=int, default=15000, help="lease TTL of the nodes (long: a loaded box renews late)")
    ap.add_argument("--port-base", type=int, default=28700)
    ap.add_argument("--path", default="/counter/fwd?op=get", help="the read each request makes")
    ap.add_argument("--work", default=os.path.join(BENCH_DIR, ".work", "forward-ab"))
    a = ap.parse_args()
    script = os.path.join(BENCH_DIR, "wrk", "load.lua")
    fleets = [Fleet("base", a.base, a.work, a.port_base), Fleet("new", a.new, a.work, a.port_base + 20)]
    rows = []
    try:
        for f in fleets:
            f.start(a.ttl_ms)
        for _ in range(max(1, a.warm_s // 10)):
            for f in fleets:
                for node in ("a", "b"):
                    wrk(f.url(node, a.path), 10, 4, script)
        log("warmed: %d s per path and build" % (max(1, a.warm_s // 10) * 10))
        wait_idle(fleets, a.idle_max_s)
        for r in range(1, a.rounds + 1):
            for f in (fleets if r % 2 else list(reversed(fleets))):
                got = {}
                for path, node in (("local", "a"), ("forwarded", "b")):
                    c0 = f.cpu_s()
                    got[path] = wrk(f.url(node, a.path), a.round_s, 1, script)
                    got[path]["cpu_us"] = (f.cpu_s() - c0) * 1e6 / max(1, got[path]["requests"])
                    rows.append((f.label, r, path, got[path]))
                log("%s round %d: local p50 %.0f us, forwarded p50 %.0f us, overhead %+.0f us; CPU/request %.0f / %.0f us"
                    " (non2xx %d/%d)" % (f.label, r, got["local"]["p50_us"], got["forwarded"]["p50_us"],
                                          got["forwarded"]["p50_us"] - got["local"]["p50_us"], got["local"]["cpu_us"],
                                          got["forwarded"]["cpu_us"], got["local"]["non2xx"], got["forwarded"]["non2xx"]))
    finally:
        for f in fleets:
            f.stop()
    print("build\tround\tpath\trequests\tp50_us\tp90_us\tp99_us\tcpu_us_per_req\tnon2xx\tsockerr")
    for label, r, path, m in rows:
        print("%s\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d" % (label, r, path, m["requests"], m["p50_us"], m["p90_us"], m["p99_us"],
                                                       m["cpu_us"], m["non2xx"], m["sockerr"]))
    med, cpu = {}, {}
    for f in fleets:
        mine = [(r, p, m) for (l, r, p, m) in rows if l == f.label]
        by_round = {r: {p: m for (r2, p, m) in mine if r2 == r} for (r, _, _) in mine}
        over = [v["forwarded"]["p50_us"] - v["local"]["p50_us"] for v in by_round.values()]
        cpu_over = [v["forwarded"]["cpu_us"] - v["local"]["cpu_us"] for v in by_round.values()]
        loc = statistics.median(m["p50_us"] for (_, p, m) in mine if p == "local")
        fwd = statistics.median(m["p50_us"] for (_, p, m) in mine if p == "forwarded")
        med[f.label], cpu[f.label] = statistics.median(over), statistics.median(cpu_over)
        print("# %s: local p50 median %.0f us, forwarded p50 median %.0f us, overhead per round %s us, median %+.0f us;"
              " CPU per request, forwarded - local, median %+.0f us" % (f.label, loc, fwd, [int(o) for o in over], med[f.label],
                                                                        cpu[f.label]))
    print("# new - base: p50 overhead %+.0f us, CPU overhead per request %+.0f us" % (med["new"] - med["base"], cpu["new"] - cpu["base"]))


def wait_idle(fleets, max_s):
    """Until every node of both fleets used under 5 % of a core over 5 s (or max_s passed)."""
    end = time.time() + max_s
    while time.time() < end:
        before = [f.cpu_s() for f in fleets]
        time.sleep(5)
        used = [(f.cpu_s() - b) / 5 for f, b in zip(fleets, before)]
        if all(u < 0.10 for u in used):  # two nodes per fleet: 5 % each
            log("idle: %s cores" % ["%.2f" % u for u in used])
            return
    log("not idle after %d s: measuring anyway" % max_s)

if __name__ == "__main__":
    main()
