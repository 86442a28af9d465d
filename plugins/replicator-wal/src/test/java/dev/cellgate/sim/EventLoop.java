package dev.cellgate.sim;

import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * The simulator's discrete-event scheduler on virtual (true) time. Single-threaded: every
 * future the real fleet code waits on is completed from here, so its callbacks run in a
 * deterministic order given the seed.
 */
final class EventLoop {
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long now;
    private long seq;
    private long executed;

    private record Event(long at, long seq, SimProcess owner, Runnable task) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Long.compare(at, o.at);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    EventLoop(long start) {
        this.now = start;
    }

    long now() {
        return now;
    }

    long executed() {
        return executed;
    }

    /** Runs {@code task} at {@code at} unless {@code owner} (null: nobody, e.g. the bucket) has crashed by then. */
    void at(long at, SimProcess owner, Runnable task) {
        queue.add(new Event(Math.max(at, now), seq++, owner, task));
    }

    void after(long delayMs, SimProcess owner, Runnable task) {
        at(now + Math.max(0, delayMs), owner, task);
    }

    /**
     * Runs events up to {@code until}, leaving the clock there.
     *
     * @param maxEvents guard against a livelock in the code under test
     * @param stop      checked after each event: the run ends at the first violation
     */
    void runUntil(long until, long maxEvents, BooleanSupplier stop) {
        while (!queue.isEmpty() && queue.peek().at <= until && !stop.getAsBoolean()) {
            Event e = queue.poll();
            if (e.owner != null && !e.owner.alive) {
                continue;
            }
            if (e.owner != null && e.owner.pausedUntil > e.at) {
                queue.add(new Event(e.owner.pausedUntil, seq++, e.owner, e.task));
                continue;
            }
            now = e.at;
            if (++executed > maxEvents) {
                throw new SimFailure("livelock", "more than " + maxEvents + " events");
            }
            e.task.run();
        }
        now = Math.max(now, until);
    }
}
