package dev.cellgate.js.graal.instance;

import java.lang.management.ManagementFactory;

/**
 * Per-thread CPU time and allocated bytes, from HotSpot's {@code com.sun.management.ThreadMXBean}
 * (the only allocation measure available: GraalJS community has no per-context heap limit).
 */
final class ThreadResources {
    static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static {
        if (MX.isThreadCpuTimeSupported() && !MX.isThreadCpuTimeEnabled()) {
            MX.setThreadCpuTimeEnabled(true);
        }
        if (MX.isThreadAllocatedMemorySupported() && !MX.isThreadAllocatedMemoryEnabled()) {
            MX.setThreadAllocatedMemoryEnabled(true);
        }
    }

    private ThreadResources() {
    }

    static long currentCpuNanos() {
        return MX.getCurrentThreadCpuTime();
    }

    static long currentAllocatedBytes() {
        return MX.getCurrentThreadAllocatedBytes();
    }

    static long cpuNanos(long threadId) {
        return MX.getThreadCpuTime(threadId);
    }

    static long allocatedBytes(long threadId) {
        return MX.getThreadAllocatedBytes(threadId);
    }
}
