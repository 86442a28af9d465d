package dev.cellgate.core.bindings;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where a D1 database lives: in a cell of the engine's built-in Durable Object class
 * {@link #CLASS_NAME} (docs/d1.md), one per database. The cell's id is derived from the database
 * alone, never from the Worker or the binding name, so every binding of the same
 * {@code database_id} — in any Worker, any deployment, on any node — reaches the same cell, with
 * its ownership, output gate, replication and handoff.
 */
public final class D1Cells {
    /**
     * The built-in class: a valid scope class name ({@code logic/Scopes}) that no bundler emits; the
     * engine refuses a deployment whose own exports use it.
     */
    public static final String CLASS_NAME = "$cellgate$D1";

    private D1Cells() {
    }

    /**
     * The cell's 64-hex id: SHA-256 of {@code "d1\0id\0" + database_id}, or of
     * {@code "d1\0name\0" + database_name} for a binding without an id (a name and an id that are
     * the same text do not meet).
     */
    public static String hexOf(String databaseId, String databaseName) {
        String key = databaseId != null ? "d1\0id\0" + databaseId : "d1\0name\0" + databaseName;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The cell scope ({@code <class>:<hex>}) of a database. */
    public static String scopeOf(String databaseId, String databaseName) {
        return CLASS_NAME + ":" + hexOf(databaseId, databaseName);
    }
}
