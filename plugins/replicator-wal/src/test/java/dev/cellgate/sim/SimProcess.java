package dev.cellgate.sim;

/**
 * One run of a node's process. Events owned by a process are dropped once it has crashed (a dead
 * process never sees the answers to its pending calls) and deferred while it is paused (SIGSTOP).
 */
final class SimProcess {
    final String node;
    final String session;
    boolean alive = true;
    long pausedUntil;

    SimProcess(String node, String session) {
        this.node = node;
        this.session = session;
    }

    @Override
    public String toString() {
        return node + "/" + session;
    }
}
