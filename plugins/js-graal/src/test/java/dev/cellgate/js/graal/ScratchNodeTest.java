package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ScratchNodeTest {
    @Test
    void run() throws Exception {
        Path fixture = Path.of(System.getProperty("fixture", "src/test/resources/conformance-node"));
        JsonObject spec = new JsonObject(Files.readString(fixture.resolve("cases.json")));
        try (TestEngine engine = new TestEngine(); TestWorker worker = engine.worker(Differential.bundle(fixture, spec))) {
            for (String name : System.getProperty("cases").split(",")) {
                JsonObject c = new JsonObject().put("name", name);
                Differential.Answer a = Differential.runOnCellgate(worker::send, c, "http://127.0.0.1:9");
                System.out.println("CASE " + name + " " + a.status() + " " + a.body());
            }
        }
    }
}
