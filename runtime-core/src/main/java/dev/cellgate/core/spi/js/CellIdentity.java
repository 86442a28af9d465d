package dev.cellgate.core.spi.js;

/**
 * A Durable Object id: 64 lowercase hex characters, plus the name it was derived from when
 * known ({@code idFromName}), else {@code null}.
 */
public record CellIdentity(String className, String hex, String name) {
    public CellIdentity {
        if (hex == null || !hex.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a Durable Object id is 64 lowercase hex characters, got '" + hex + "'");
        }
    }

    /** The bucket scope of the cell: {@code <ClassName>:<hex>}. */
    public String scope() {
        return className + ":" + hex;
    }
}
