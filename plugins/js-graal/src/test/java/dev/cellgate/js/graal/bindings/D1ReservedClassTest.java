package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.bindings.D1Cells;
import dev.cellgate.core.bindings.FleetBindings;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.support.TestEngine;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The D1 cell class is the engine's own: the cell host may construct it only in a deployment with
 * a D1 binding, and no export of the Worker may take its name.
 */
class D1ReservedClassTest {
    private static TestEngine engine;

    @BeforeAll
    static void start() {
        engine = new TestEngine(FleetBindings.registry(null));
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private static ScriptBundle bundle(String source, List<EnvBinding> bindings) {
        return new ScriptBundle("w", "w", "worker.js", Map.of("worker.js", source), Map.of(), Map.of(), "2025-01-01", List.of())
                .withBindings(bindings);
    }

    private static final List<EnvBinding> D1 = List.of(new EnvBinding("DB", "d1", new JsonObject().put("database_id", "x")));

    @Test
    void aDeploymentWithAD1BindingServesTheBuiltInClassAndOnlyThen() throws Exception {
        String worker = "export class Room {}\nexport default { fetch() { return new Response('ok'); } };";
        try (LoadedScript with = engine.load(bundle(worker, D1)); LoadedScript without = engine.load(bundle(worker, List.of()))) {
            assertThat(with.exportedClasses()).containsExactlyInAnyOrder("Room", D1Cells.CLASS_NAME);
            assertThat(without.exportedClasses()).containsExactly("Room");
        }
    }

    @Test
    void anExportNamedLikeTheBuiltInClassIsRefusedAtLoad() {
        String worker = "class X {}\nexport { X as $cellgate$D1 };\nexport default { fetch() { return new Response('ok'); } };";
        assertThatThrownBy(() -> engine.load(bundle(worker, D1)).close())
                .hasMessageContaining("$cellgate$D1").hasMessageContaining("reserved");
    }
}
