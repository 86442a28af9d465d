package dev.cellgate.js.graal.host.wasm;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Which threads are running WebAssembly now, so the CPU watchdog can stop them. GraalJS's
 * {@code Context.interrupt} stops JavaScript at its next safepoint, but Wasm runs in Chicory's
 * Java code, which only notices {@link Thread#interrupt()}. A thread is interrupted only while it
 * is inside a Wasm call, and its interrupt flag is cleared when that call returns, so the
 * executor thread is never left interrupted.
 */
public final class WasmCalls {
    private static final ConcurrentHashMap<Long, Slot> RUNNING = new ConcurrentHashMap<>();
    private static final ThreadLocal<Slot> SLOT = ThreadLocal.withInitial(Slot::new);

    private static final class Slot {
        final Thread thread = Thread.currentThread();
        int depth;
        boolean interrupted;
    }

    private WasmCalls() {
    }

    static void enter() {
        Slot s = SLOT.get();
        synchronized (s) {
            if (s.depth++ == 0) {
                RUNNING.put(Thread.currentThread().threadId(), s);
            }
        }
    }

    static void exit() {
        Slot s = SLOT.get();
        synchronized (s) {
            if (--s.depth == 0) {
                RUNNING.remove(Thread.currentThread().threadId());
                if (s.interrupted) {
                    s.interrupted = false;
                    Thread.interrupted(); // ours, not the executor's
                }
            }
        }
    }

    /** Interrupts thread {@code threadId} if it is running Wasm (the watchdog killed its event). */
    public static void interrupt(long threadId) {
        Slot s = RUNNING.get(threadId);
        if (s == null) {
            return;
        }
        synchronized (s) {
            if (s.depth > 0) {
                s.interrupted = true;
                s.thread.interrupt();
            }
        }
    }
}
