package dev.cellgate.sim;

import dev.cellgate.core.time.Scheduler;

/** A process's {@link Scheduler} on the event loop: its timers die with it and wait while it is paused. */
final class SimScheduler implements Scheduler {
    private final EventLoop loop;
    private final SimProcess process;

    SimScheduler(EventLoop loop, SimProcess process) {
        this.loop = loop;
        this.process = process;
    }

    @Override
    public Cancellable after(long delayMs, Runnable task) {
        boolean[] cancelled = {false};
        loop.after(delayMs, process, () -> {
            if (!cancelled[0]) {
                task.run();
            }
        });
        return () -> cancelled[0] = true;
    }
}
