#!/usr/bin/env python3
"""What a durable object write costs this disk, the floor under every gated write on a file:// bucket.

Not a test: numbers for bench/RESULTS.md.

    python3 bench/tools/fsync_cost.py [directory=bench/.work/fsync] [writes-per-line=400]
    python3 bench/tools/fsync_cost.py --paced [directory] [writes-per-line=1360]

Each write does what FileBucketStore does with fsync on: create a temporary file, write ~5 KB,
force it, rename it over the target, then (last line only) force the directory so the rename
survives a power cut. Single-threaded, as one cell's flushes are.

--paced: only the full write (both flushes), 170 per second instead of back to back (a moderate
load, as bench/run.sh counter-paced), alone and with a second process deleting 150 / 600 / 1,500
files per second beside it (the replicator deletes about one l0 segment per write).
"""
import multiprocessing
import os
import sys
import time

from probe import pct  # the bench tools' one percentile (nearest rank)

PACED_PER_S = 170


def wait_turn(t0, i, per_s):
    """Sleeps until the i-th slot of a steady per_s-per-second schedule that began at t0."""
    pause = t0 + i / per_s - time.time()
    if pause > 0:
        time.sleep(pause)


def unlinker(d, per_s, seconds, ready):
    """Creates (unflushed) files in d, says so, then deletes them at per_s per second."""
    os.makedirs(d, exist_ok=True)
    files = [f"{d}/garbage-{i}" for i in range(int(per_s * seconds))]
    for f in files:
        fd = os.open(f, os.O_CREAT | os.O_WRONLY, 0o644)
        os.write(fd, b"y" * 5000)
        os.close(fd)
    ready.set()
    t0 = time.time()
    for i, f in enumerate(files):
        os.unlink(f)
        wait_turn(t0, i + 1, per_s)


def line(d, n, how, per_s=0, unlinks_per_s=0):
    deleter = None
    if unlinks_per_s:
        ready = multiprocessing.Event()
        deleter = multiprocessing.Process(target=unlinker, args=(d + "-garbage", unlinks_per_s, n / per_s + 2, ready))
        deleter.start()
        ready.wait()  # its files exist: from now on it only deletes
    times = []
    t0 = time.time()
    for i in range(n):
        if per_s:
            wait_turn(t0, i, per_s)
        t = time.perf_counter()
        tmp = f"{d}/.tmp-{i}"
        fd = os.open(tmp, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o644)
        os.write(fd, b"x" * 5000)
        (os.fdatasync if how == "fdatasync" else os.fsync)(fd)
        os.close(fd)
        os.rename(tmp, f"{d}/object-{i}")
        if how == "fsync + directory fsync":
            dfd = os.open(d, os.O_RDONLY)
            os.fsync(dfd)
            os.close(dfd)
        times.append((time.perf_counter() - t) * 1000)
    if deleter:
        deleter.join()
    times.sort()
    label = how if not per_s else f"{how}, {per_s}/s, {unlinks_per_s} unlinks/s beside"
    print(f"| {label} | {pct(times, 50):.3f} | {pct(times, 90):.3f} | {pct(times, 99):.3f} |", flush=True)


def main():
    paced = "--paced" in sys.argv[1:]
    args = [a for a in sys.argv[1:] if a != "--paced"]
    d = args[0] if args else "bench/.work/fsync"
    n = int(args[1]) if len(args) > 1 else (1360 if paced else 400)
    os.makedirs(d, exist_ok=True)
    if paced:
        print(f"| write + rename + both flushes, {n} per line in {d} | p50 ms | p90 ms | p99 ms |")
        print("|---|---:|---:|---:|")
        for _ in (1, 2):
            for unlinks in (0, 150, 600, 1500):
                line(d, n, "fsync + directory fsync", PACED_PER_S, unlinks)
        return
    print(f"| write + rename, {n} in a row in {d} | p50 ms | p90 ms | p99 ms |")
    print("|---|---:|---:|---:|")
    for _ in (1, 2):  # twice, interleaved: this disk's flush time drifts from minute to minute
        for how in ("fsync", "fdatasync", "fsync + directory fsync"):
            line(d, n, how)


if __name__ == "__main__":
    main()
