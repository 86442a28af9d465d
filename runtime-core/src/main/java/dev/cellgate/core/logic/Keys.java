package dev.cellgate.core.logic;

/** The bucket's key layout (SPEC §4), in one place. */
public final class Keys {
    private Keys() {
    }

    public static final String PEER_AUTH = "fleet/peer-auth.json";
    public static final String NODES = "nodes/";
    public static final String NODE_CELLS = "node-cells/";
    public static final String WAKER = "wake/waker.json";
    public static final String WAKE = "wake/";
    public static final String CURRENT_DEPLOYMENT = "deploy/current.json";
    public static final String DEPLOY = "deploy/";
    public static final String BLOBS = "deploy-blobs/sha256/";
    public static final String PROBE = "probe/";
    /** Static assets, content-addressed: {@code assets/<sha256>} (files and asset manifests, SPEC §17). */
    public static final String ASSETS = "assets/";
    /** Worker secrets: {@code secrets/<worker>/<NAME>/<version>.json} (SPEC §14, docs/deploy.md "Secrets"). */
    public static final String SECRETS = "secrets/";
    /** Cron claims: {@code crons/<worker>/<first 16 hex of sha256(cron)>.json}, one small record per trigger (SPEC §17). */
    public static final String CRONS = "crons/";

    public static String ownership(String scope) {
        return "cells/" + scope + "/own.json";
    }

    /** Prefix of everything a cell keeps in the bucket. */
    public static String cell(String scope) {
        return "cells/" + scope + "/";
    }

    public static String lease(String node) {
        return NODES + node + ".json";
    }

    /** The node a lease key names, or null when the key is not {@code nodes/<node>.json}. */
    public static String nodeOfLeaseKey(String key) {
        if (!key.startsWith(NODES) || !key.endsWith(".json")) {
            return null;
        }
        String n = key.substring(NODES.length(), key.length() - ".json".length());
        return n.isEmpty() || n.contains("/") ? null : n;
    }

    /** {@code node-cells/<node>/<gen>/<scope>}: the node holds the cell (written on acquire, deleted on release). */
    public static String marker(String node, String generation, String scope) {
        return NODE_CELLS + node + "/" + generation + "/" + scope;
    }

    public static String markersOf(String node) {
        return NODE_CELLS + node + "/";
    }

    public static String manifest(String deploymentId) {
        return DEPLOY + deploymentId + "/manifest.json";
    }

    public static String blob(String sha256Hex) {
        return BLOBS + sha256Hex;
    }

    public static String asset(String sha256Hex) {
        return ASSETS + sha256Hex;
    }

    /** Prefix of every secret value of Worker {@code worker}. */
    public static String secretsOf(String worker) {
        return SECRETS + worker + "/";
    }

    /** One stored value of a secret: each put is a new version, so a deployment names the exact value it runs with. */
    public static String secret(String worker, String name, String version) {
        return secretsOf(worker) + name + "/" + version + ".json";
    }

    /**
     * The claim record of one cron trigger of Worker {@code worker}. Keyed by a digest of the
     * expression as written (it holds spaces, {@code *} and {@code /}); the same expression in a
     * later deployment keeps its record, so a push never re-runs an occurrence already run.
     */
    public static String cronClaim(String worker, String cron) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(cron.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return CRONS + worker + "/" + java.util.HexFormat.of().formatHex(d, 0, 8) + ".json";
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
