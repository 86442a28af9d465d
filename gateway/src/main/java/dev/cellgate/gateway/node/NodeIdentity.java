package dev.cellgate.gateway.node;

import dev.cellgate.core.config.NodeConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Who this node is. The id is {@code CELLD_NODE}, else the one this work directory was given the
 * first time (kept in {@code <CELLD_WATCH>/node-id}, so a restart is the same node and can resume
 * preserved cells). The session is new for every process: a lease from another session of the
 * same node is not ours.
 */
public record NodeIdentity(String nodeId, String session) {

    public static NodeIdentity resolve(NodeConfig config, Path watchDir) throws IOException {
        String id = config.nodeId().orElse(null);
        if (id == null) {
            Path file = watchDir.resolve("node-id");
            if (Files.exists(file)) {
                id = Files.readString(file).strip();
                if (!id.matches("[A-Za-z0-9._-]{1,128}")) {
                    throw new IOException(file + " holds an invalid node id '" + id + "'; delete it or set CELLD_NODE");
                }
            } else {
                id = generate();
                Files.createDirectories(watchDir);
                Files.writeString(file, id + "\n");
            }
        }
        return new NodeIdentity(id, randomHex(8));
    }

    private static String generate() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9._-]", "-");
        } catch (IOException e) {
            host = "node";
        }
        if (host.length() > 100) {
            host = host.substring(0, 100);
        }
        return host + "-" + randomHex(3);
    }

    static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
