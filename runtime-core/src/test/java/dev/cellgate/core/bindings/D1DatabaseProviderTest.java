package dev.cellgate.core.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.Scopes;
import dev.cellgate.core.spi.js.EnvBinding;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Which cell a D1 binding reaches, and which settings it refuses. */
class D1DatabaseProviderTest {
    private final D1DatabaseProvider provider = new D1DatabaseProvider();

    private static EnvBinding d1(String name, JsonObject settings) {
        return new EnvBinding(name, "d1", settings);
    }

    @Test
    void theCellDependsOnTheDatabaseIdAloneNotOnTheBindingOrTheWorker() {
        JsonObject settings = new JsonObject().put("database_id", "4b1c7e0a-1111-2222-3333-444455556666").put("database_name", "app");
        String a = (String) provider.open(d1("DB", settings), null);
        String b = (String) provider.open(d1("OTHER", settings.copy().put("database_name", "renamed")), null);
        assertThat(a).isEqualTo(b);
        assertThat(Scopes.isValid(a)).as("a cell scope: " + a).isTrue();
        assertThat(a).startsWith(D1Cells.CLASS_NAME + ":");
        assertThat(a).isNotEqualTo(provider.open(d1("DB", new JsonObject().put("database_id", "another")), null));
    }

    @Test
    void withoutAnIdTheNameNamesTheCellAndCannotCollideWithAnId() {
        String byName = (String) provider.open(d1("DB", new JsonObject().put("database_name", "app")), null);
        String byId = (String) provider.open(d1("DB", new JsonObject().put("database_id", "app")), null);
        assertThat(byName).isNotEqualTo(byId);
    }

    @Test
    void badSettingsAreRefusedByName() {
        assertThatThrownBy(() -> provider.check(d1("DB", new JsonObject())))
                .hasMessageContaining("database_id").hasMessageContaining("database_name");
        assertThatThrownBy(() -> provider.check(d1("DB", new JsonObject().put("database_id", 5))))
                .hasMessageContaining("database_id");
        assertThatThrownBy(() -> provider.check(d1("DB", new JsonObject().put("database_id", ""))))
                .hasMessageContaining("database_id");
    }

    @Test
    void theFleetServesD1() {
        assertThat(FleetBindings.registry(null).provider("d1")).isPresent();
    }
}
