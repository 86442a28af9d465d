package dev.cellgate.core.bindings;

import dev.cellgate.core.deploy.bindings.WorkflowBinding;
import dev.cellgate.core.spi.js.BindingMethod;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code workflow}: a Workflow (docs/workflows.md). The engine's wrapper ({@code bindings/workflow.js}
 * in js-graal) holds the whole engine: each instance is a cell of {@link WorkflowCells#CLASS_NAME},
 * reached through the ordinary Durable Object stub path. The host side names an instance's cell and
 * offers the one thing JavaScript cannot do alone: wait until the cell's writes are in the bucket
 * (a step counts as done only then, before the next step's side effects).
 */
public final class WorkflowProvider implements BindingProvider {
    /**
     * The test-only switch (a JVM system property, so that no node setting exists for it) of the broken variant {@code WorkflowFleetIT} must catch: step results kept
     * in memory and written only when the run suspends or ends, so a crash mid-run re-runs steps that
     * had completed. Never set it in production.
     */
    public static final String BROKEN_MEMO_PROPERTY = "cellgate.test.workflowMemoDeferred";

    private final boolean memoDeferred;

    public WorkflowProvider() {
        this(Boolean.getBoolean(BROKEN_MEMO_PROPERTY));
    }

    public WorkflowProvider(boolean memoDeferred) {
        this.memoDeferred = memoDeferred;
    }

    @Override
    public String type() {
        return WorkflowBinding.TYPE;
    }

    @Override
    public void check(EnvBinding binding) {
        text(binding, "workflow_name");
        text(binding, "class_name");
    }

    @Override
    public Object open(EnvBinding binding, InstanceHost host) {
        return new Host(text(binding, "workflow_name"), host, memoDeferred);
    }

    private static String text(EnvBinding binding, String key) {
        Object v = binding.settings().getValue(key);
        if (!(v instanceof String s) || s.isEmpty()) {
            throw new IllegalArgumentException("\"" + key + "\" of a workflow binding must be a non-empty string (got " + v + ")");
        }
        return s;
    }

    /** The host side of one {@code env.<workflow binding>}. */
    public static final class Host {
        private final String workflowName;
        private final InstanceHost host;
        private final boolean memoDeferred;

        Host(String workflowName, InstanceHost host, boolean memoDeferred) {
            this.workflowName = workflowName;
            this.host = host;
            this.memoDeferred = memoDeferred;
        }

        /** The cell scope of instance {@code instanceId}. */
        @BindingMethod
        public String scopeOf(String instanceId) {
            return WorkflowCells.scopeOf(workflowName, instanceId);
        }

        /** Completes once every write the instance made so far is durable in the bucket (a Worker: at once). */
        @BindingMethod
        public CompletionStage<Boolean> durable() {
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            host.afterDurable(() -> done.complete(Boolean.TRUE));
            return done;
        }

        /** True only under the test-only broken variant ({@link #BROKEN_MEMO_PROPERTY}). */
        @BindingMethod
        public boolean memoDeferred() {
            return memoDeferred;
        }
    }
}
