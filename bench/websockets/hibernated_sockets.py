#!/usr/bin/env python3
"""Open hibernated WebSockets per GB on one node running examples/chat.

Opens SOCKETS client connections spread over ROOMS rooms, waits until every room hibernated
(the node's /state shows hibernated == ROOMS), then measures the node JVM's live heap (after a
full GC, through jcmd) and its resident memory, against the same measurement taken before the
sockets opened. Prints per-socket costs and sockets per GB. The client side is plain TCP with a
hand-made WebSocket handshake, so thousands of idle connections cost it almost nothing.

    bench/websockets/run.sh [--sockets 5000] [--rooms 50]
"""
import argparse
import base64
import concurrent.futures
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request


def state(internal):
    return json.load(urllib.request.urlopen(f"http://{internal}/state", timeout=30))


def heap_used_bytes(pid):
    subprocess.run(["jcmd", str(pid), "GC.run"], check=True, capture_output=True)
    out = subprocess.run(["jcmd", str(pid), "GC.heap_info"], check=True, capture_output=True, text=True).stdout
    m = re.search(r"used (\d+)K", out)
    return int(m.group(1)) * 1024


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def measure(pid):
    heap = min(heap_used_bytes(pid) for _ in range(3))
    return heap, rss_bytes(pid)


def open_socket(host, port, path):
    s = socket.create_connection((host, port), timeout=120)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = s.recv(4096)
        if not d:
            raise RuntimeError("connection closed during the upgrade of " + path)
        buf += d
    if not buf.startswith(b"HTTP/1.1 101"):
        raise RuntimeError("upgrade refused: " + buf.split(b"\r\n")[0].decode())
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--public", required=True)
    ap.add_argument("--internal", required=True)
    ap.add_argument("--pid", type=int, required=True, help="pid of the node JVM that serves (the JIT child)")
    ap.add_argument("--sockets", type=int, default=5000)
    ap.add_argument("--rooms", type=int, default=50)
    ap.add_argument("--parallel", type=int, default=16, help="upgrades in flight at once")
    a = ap.parse_args()
    host, port = a.public.rsplit(":", 1)
    port = int(port)

    warm = open_socket(host, port, "/room/warmup?user=w")  # code paths loaded before the baseline
    warm.close()
    time.sleep(5)
    heap0, rss0 = measure(a.pid)
    t0 = time.time()
    # Rooms are filled one after another: a room that got a member a moment ago is still awake, so
    # an upgrade does not pay for a wake (the chat constructor writes, and that write must be durable
    # before the 101 leaves). Round-robin over the rooms made almost every upgrade a wake.
    per_room = -(-a.sockets // a.rooms)
    paths = [f"/room/r{i // per_room}?user=u{i}" for i in range(a.sockets)]
    with concurrent.futures.ThreadPoolExecutor(a.parallel) as pool:
        socks = list(pool.map(lambda p: open_socket(host, port, p), paths))
    opened = time.time() - t0
    deadline = time.time() + 600
    while True:
        st = state(a.internal)
        rooms = len(set(p.split("?")[0] for p in paths))
        if st["hibernatable_sockets"] >= a.sockets and st["hibernated"] >= rooms:
            break
        if time.time() > deadline:
            sys.exit(f"rooms did not all hibernate: {st}")
        time.sleep(1)
    heap1, rss1 = measure(a.pid)
    per_heap = (heap1 - heap0) / a.sockets
    per_rss = (rss1 - rss0) / a.sockets
    print(json.dumps({
        "sockets": a.sockets, "rooms": len(set(p.split("?")[0] for p in paths)), "open_seconds": round(opened, 1),
        "heap_bytes_per_socket": round(per_heap), "rss_bytes_per_socket": round(per_rss),
        "sockets_per_gb_heap": int((1 << 30) / per_heap) if per_heap > 0 else None,
        "sockets_per_gb_rss": int((1 << 30) / per_rss) if per_rss > 0 else None,
        "heap_before": heap0, "heap_after": heap1, "rss_before": rss0, "rss_after": rss1,
    }, indent=2))
    for s in socks:
        s.close()


if __name__ == "__main__":
    main()
