package dev.cellgate.core.bindings;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where a Workflow instance lives: in a cell of the engine's built-in Durable Object class
 * {@link #CLASS_NAME} (docs/workflows.md), one per instance. The cell's id is derived from the
 * Workflow's name and the instance id alone, never from the binding name, so every binding of one
 * Workflow — in the Worker, in its Durable Objects, on any node — reaches the same instance, with
 * the cell's ownership, output gate, replication, handoff and alarms.
 */
public final class WorkflowCells {
    /** The built-in class: a valid scope class name that no bundler emits; an export of that name is refused at load. */
    public static final String CLASS_NAME = "$cellgate$Workflow";

    private WorkflowCells() {
    }

    /** The cell's 64-hex id: SHA-256 of {@code "workflow\0" + workflowName + "\0" + instanceId}. */
    public static String hexOf(String workflowName, String instanceId) {
        String key = "workflow\0" + workflowName + "\0" + instanceId;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The cell scope ({@code <class>:<hex>}) of an instance. */
    public static String scopeOf(String workflowName, String instanceId) {
        return CLASS_NAME + ":" + hexOf(workflowName, instanceId);
    }
}
