#!/usr/bin/env python3
"""What a durable object write costs this disk, the floor under every gated write on a file:// bucket.

Not a test: numbers for bench/RESULTS.md.

    python3 bench/tools/fsync_cost.py [directory=bench/.work/fsync] [writes-per-line=400]

Each write does what FileBucketStore does with fsync on: create a temporary file, write ~5 KB,
force it, rename it over the target, then (last line only) force the directory so the rename
survives a power cut. Single-threaded, as one cell's flushes are.
"""
import os
import sys
import time


def line(d, n, how):
    times = []
    for i in range(n):
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
    times.sort()
    print(f"| {how} | {times[n // 2]:.3f} | {times[int(n * 0.9)]:.3f} | {times[int(n * 0.99)]:.3f} |", flush=True)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "bench/.work/fsync"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 400
    os.makedirs(d, exist_ok=True)
    print(f"| write + rename, {n} in a row in {d} | p50 ms | p90 ms | p99 ms |")
    print("|---|---:|---:|---:|")
    for _ in (1, 2):  # twice, interleaved: this disk's flush time drifts from minute to minute
        for how in ("fsync", "fdatasync", "fsync + directory fsync"):
            line(d, n, how)


if __name__ == "__main__":
    main()
