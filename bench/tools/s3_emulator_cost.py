#!/usr/bin/env python3
"""What one request costs the loopback S3 emulator (.ci/s3-server.sh: S3Proxy in front of Azurite).

Not a test: numbers for bench/RESULTS.md, to tell what bounds the gated scenarios on S3.

    set -a; . .ci/work/s3-server/s3.env; set +a
    python3 bench/tools/s3_emulator_cost.py [requests-per-line=300] [seconds-per-throughput-run=20]

1. Latency and the emulator's CPU per request (S3Proxy + Azurite, from /proc/<pid>/stat) for the
   requests a gated write makes: a create-only PUT of a segment, then the ownership check (a GET of
   own.json before a48620d, its version alone, a HEAD, since), on one persistent connection.
2. The most "flushes" (create-only PUT + GET, or + HEAD) per second the emulator gives on this box,
   from 1 and 4 client threads.

It only creates objects (under a fresh prefix) and never deletes: Azurite frees deleted blobs in a
clean-up pass whose cost grows with the number of stored blobs, and tens of thousands of deletes
within its 10-minute period stall it for many minutes.
"""
import datetime
import hashlib
import hmac
import http.client
import os
import sys
import threading
import time

from probe import pct  # the bench tools' one percentile (nearest rank)

ENDPOINT = os.environ["S3_ENDPOINT"].removeprefix("http://")
BUCKET = os.environ["S3_BUCKET"]
KEY_ID, SECRET = os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"]
REGION = os.environ.get("AWS_REGION", "us-east-1")
TICK_MS = 1000.0 / os.sysconf("SC_CLK_TCK")


def _hmac(key, msg):
    return hmac.new(key, msg.encode(), hashlib.sha256).digest()


def request(conn, method, key, body=b"", headers=None):
    """One SigV4-signed request on a kept-alive connection; returns the HTTP status."""
    now = datetime.datetime.now(datetime.timezone.utc)
    amz, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    payload = hashlib.sha256(body).hexdigest()
    h = {"host": ENDPOINT, "x-amz-content-sha256": payload, "x-amz-date": amz, **(headers or {})}
    names = sorted(h)
    path = f"/{BUCKET}/{key}"
    canonical = "\n".join([method, path, "", "".join(f"{k}:{h[k]}\n" for k in names), ";".join(names), payload])
    scope = f"{day}/{REGION}/s3/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    signing_key = _hmac(_hmac(_hmac(_hmac(("AWS4" + SECRET).encode(), day), REGION), "s3"), "aws4_request")
    signature = hmac.new(signing_key, to_sign.encode(), hashlib.sha256).hexdigest()
    h["Authorization"] = (f"AWS4-HMAC-SHA256 Credential={KEY_ID}/{scope}, SignedHeaders={';'.join(names)}, "
                          f"Signature={signature}")
    conn.request(method, path, body=body, headers=h)
    r = conn.getresponse()
    r.read()
    return r.status


def pid_of(marker, exe):
    found = []
    for p in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = open(f"/proc/{p}/cmdline", "rb").read().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if cmd.startswith(exe) and marker in cmd:
            found.append(int(p))
    if len(found) != 1:
        sys.exit(f"expected one {exe.strip()} process with '{marker}', found {found}: is .ci/s3-server.sh running?")
    return found[0]


PROXY, AZURITE = pid_of("s3proxy-azure.properties", "java "), pid_of("azurite-blob", "node ")


def cpu_ms(pid):  # utime + stime of every thread of the process
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK_MS


def emulator_cpu():
    return cpu_ms(PROXY), cpu_ms(AZURITE)


def latency_line(name, conn, n, make):
    for i in range(n // 10):  # warm-up, not counted
        make(conn, f"w{i}")
    times = []
    p0, a0 = emulator_cpu()
    for i in range(n):
        t = time.perf_counter()
        status = make(conn, str(i))
        times.append((time.perf_counter() - t) * 1000)
        if status not in (200, 304):
            sys.exit(f"{name}: HTTP {status}")
    p1, a1 = emulator_cpu()
    times.sort()
    print(f"| {name} | {pct(times, 50):.2f} | {pct(times, 99):.2f} | {(p1 - p0) / n:.2f} | {(a1 - a0) / n:.2f} | "
          f"{(p1 - p0 + a1 - a0) / n:.2f} |", flush=True)


def throughput_line(check, threads, seconds, prefix):
    body = os.urandom(4096)
    done = [0] * threads
    stop = time.perf_counter() + seconds

    def client(t):
        conn, i = http.client.HTTPConnection(ENDPOINT), 0
        while time.perf_counter() < stop:
            ok = request(conn, "PUT", f"{prefix}/tp-{check}-{threads}/{t}/{i}", body, {"if-none-match": "*"}) == 200
            ok = request(conn, check, f"{prefix}/own.json") == 200 and ok
            done[t] += ok
            i += 1

    p0, a0 = emulator_cpu()
    t0 = time.perf_counter()
    workers = [threading.Thread(target=client, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    dt = time.perf_counter() - t0
    p1, a1 = emulator_cpu()
    print(f"| PUT + {check} | {threads} | {sum(done) / dt:.0f} | {(p1 - p0) / dt / 10:.0f} % | {(a1 - a0) / dt / 10:.0f} % |",
          flush=True)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20
    prefix = f"emulator-cost-{int(time.time())}"
    conn = http.client.HTTPConnection(ENDPOINT)
    segment = os.urandom(4096)
    own = b'{"node":"bench","session":"s","epoch":1}' + b" " * 150
    if request(conn, "PUT", f"{prefix}/own.json", own) != 200:
        sys.exit("could not write the own.json stand-in")
    print(f"{os.popen('uptime').read().strip()}\n")
    print(f"| request ({n} in a row, one connection) | p50 ms | p99 ms | S3Proxy CPU ms | Azurite CPU ms | emulator CPU ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for rnd in (1, 2):
        latency_line(f"PUT 4 KiB, If-None-Match: * (round {rnd})", conn, n,
                     lambda c, i: request(c, "PUT", f"{prefix}/seg-{rnd}-{i}", segment, {"if-none-match": "*"}))
        latency_line(f"GET own.json (round {rnd})", conn, n, lambda c, i: request(c, "GET", f"{prefix}/own.json"))
        latency_line(f"HEAD own.json (round {rnd})", conn, n, lambda c, i: request(c, "HEAD", f"{prefix}/own.json"))
    print(f"\n| flush ({seconds:.0f} s per line) | client threads | flushes/s | S3Proxy CPU | Azurite CPU |")
    print("|---|---:|---:|---:|---:|")
    for check in ("GET", "HEAD"):
        for threads in (1, 4):
            throughput_line(check, threads, seconds, prefix)
    print(f"\n{os.popen('uptime').read().strip()}")


if __name__ == "__main__":
    main()
