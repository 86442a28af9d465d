package dev.cellgate.deploy.push;

import java.nio.charset.StandardCharsets;

/**
 * The Worker of an assets-only project (a Wrangler config with {@code assets} and no {@code main}).
 * The deployment's assets answer every public request (its manifest says
 * {@code has_user_worker: false}); a node still loads one module per deployment, and this one
 * answers what could reach it anyway (a WebSocket upgrade) as Wrangler's assets-only Worker does:
 * 404 "Not found".
 */
final class AssetsOnlyWorker {
    /** The module's name in the deployment (shown as its main by {@code deploy-tool list}). */
    static final String MODULE = "assets-only-worker.js";

    static final byte[] SOURCE = """
            // deploy-tool: the project has static assets and no "main"; the assets answer every request.
            export default {
              fetch() {
                return new Response("Not found", { status: 404, headers: { "content-type": "text/html" } });
              },
            };
            """.getBytes(StandardCharsets.UTF_8);

    private AssetsOnlyWorker() {
    }
}
