package dev.cellgate.core.cell;

/** This node is at its resident limit or under memory pressure and sheds nothing idle: place the cell elsewhere. */
public final class NodeFullException extends RuntimeException {
    public NodeFullException(String reason) {
        super(reason, null, false, false);
    }
}
