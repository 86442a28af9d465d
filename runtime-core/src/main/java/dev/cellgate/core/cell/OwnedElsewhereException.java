package dev.cellgate.core.cell;

/** The cell is owned by another live node: the caller forwards there. */
public final class OwnedElsewhereException extends RuntimeException {
    private final String node;

    public OwnedElsewhereException(String scope, String node) {
        super("cell " + scope + " is owned by node " + node, null, false, false);
        this.node = node;
    }

    public String node() {
        return node;
    }
}
