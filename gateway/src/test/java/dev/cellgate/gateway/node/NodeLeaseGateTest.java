package dev.cellgate.gateway.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.config.NodeConfig;
import dev.cellgate.gateway.Distribution;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 9: the node handed its cells a lease check of {@code lease == null || lease.canServe()},
 * so between the internal listener coming up (peer calls arrive there) and the first lease write
 * landing, a node with no lease at all served cells. No lease means no serving.
 */
class NodeLeaseGateTest {
    @TempDir
    Path dir;

    @Test
    void aNodeWithoutALeaseDoesNotServeCells() {
        Node node = new Node(NodeConfig.defaults(), new Distribution(dir, false));
        assertThat(node.leaseValid()).as("cells served before the node holds a lease").isFalse();
    }
}
