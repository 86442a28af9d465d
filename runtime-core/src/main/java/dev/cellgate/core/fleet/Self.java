package dev.cellgate.core.fleet;

/** This node and this process: a lease or ownership record of another session is not ours. */
public record Self(String node, String session) {
}
