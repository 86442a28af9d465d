package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.OriginServer;
import dev.cellgate.js.graal.support.TestEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The lifecycle the differential test classes share: one engine and one origin server (outbound fetch) per class. */
abstract class WithEngineAndOrigin {
    static TestEngine engine;
    static OriginServer origin;

    @BeforeAll
    static void startEngineAndOrigin() {
        engine = new TestEngine();
        origin = OriginServer.start(engine.vertx);
    }

    @AfterAll
    static void stopEngineAndOrigin() {
        origin.close();
        engine.close();
    }
}
