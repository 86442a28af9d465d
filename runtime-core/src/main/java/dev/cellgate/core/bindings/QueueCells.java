package dev.cellgate.core.bindings;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where a queue lives: in a cell of the engine's built-in Durable Object class {@link #CLASS_NAME}
 * (docs/queues.md), one per queue name. The id comes from the queue's name alone, so every
 * producer binding of a queue, its consumer, and the queues that dead-letter into it meet in one
 * cell, with its single owner, output gate, replication and handoff.
 */
public final class QueueCells {
    /** The built-in class: a valid scope class name that no bundler emits; a deployment exporting it is refused. */
    public static final String CLASS_NAME = "$cellgate$Queue";

    private QueueCells() {
    }

    /** The cell's 64-hex id: SHA-256 of {@code "queue\0" + name}. */
    public static String hexOf(String queueName) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(("queue\0" + queueName).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The cell scope ({@code <class>:<hex>}) of a queue. */
    public static String scopeOf(String queueName) {
        return CLASS_NAME + ":" + hexOf(queueName);
    }
}
