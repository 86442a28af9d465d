package dev.cellgate.deploy.wrangler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.deploy.bindings.WorkflowBinding;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** Wrangler's {@code workflows} key: manifest bindings, and every field or target cellgate cannot serve refused by name. */
class WorkflowsKeyTest {
    static WranglerConfig parse(String json) {
        return WranglerConfig.parse(new JsonObject(json), "wrangler.json");
    }

    @Test
    void workflowsBecomeManifestBindings() {
        WranglerConfig c = parse("{\"name\":\"shop\",\"workflows\":[{\"name\":\"orders\",\"binding\":\"ORDERS\",\"class_name\":\"OrderFlow\"},"
                + "{\"name\":\"mail\",\"binding\":\"MAIL\",\"class_name\":\"MailFlow\",\"script_name\":\"shop\"}]}");
        assertThat(c.bindings()).containsExactly(new WorkflowBinding("ORDERS", "orders", "OrderFlow"),
                new WorkflowBinding("MAIL", "mail", "MailFlow"));
    }

    @Test
    void aWorkflowOfAnotherWorkerIsRefusedByName() {
        assertThatThrownBy(() -> parse("{\"name\":\"shop\",\"workflows\":[{\"name\":\"w\",\"binding\":\"W\",\"class_name\":\"C\",\"script_name\":\"billing\"}]}"))
                .hasMessageContaining("workflow \"w\": script_name \"billing\" names another Worker")
                .hasMessageContaining("a cellgate fleet runs one Worker");
    }

    @Test
    void inANamedEnvironmentScriptNameIsThatEnvironmentsWorker() {
        String config = "{\"name\":\"shop\",\"env\":{\"staging\":{\"workflows\":[{\"name\":\"w\",\"binding\":\"W\",\"class_name\":\"C\","
                + "\"script_name\":\"%s\"}]}}}";
        assertThat(WranglerConfig.parse(new JsonObject(config.formatted("shop-staging")), "wrangler.json", "staging").bindings())
                .containsExactly(new WorkflowBinding("W", "w", "C"));
        assertThatThrownBy(() -> WranglerConfig.parse(new JsonObject(config.formatted("shop")), "wrangler.json", "staging"))
                .hasMessageContaining("script_name \"shop\" names another Worker");
    }

    @Test
    void unknownFieldsAndMissingOnesAreRefused() {
        assertThatThrownBy(() -> parse("{\"name\":\"shop\",\"workflows\":[{\"name\":\"w\",\"binding\":\"W\",\"class_name\":\"C\",\"limits\":{\"steps\":5}}]}"))
                .hasMessageContaining("workflows key \"limits\" is not supported by cellgate");
        assertThatThrownBy(() -> parse("{\"name\":\"shop\",\"workflows\":[{\"name\":\"w\",\"binding\":\"W\",\"class_name\":\"C\",\"remote\":true}]}"))
                .hasMessageContaining("workflows key \"remote\" is not supported by cellgate");
        assertThatThrownBy(() -> parse("{\"name\":\"shop\",\"workflows\":[{\"name\":\"w\",\"binding\":\"W\"}]}"))
                .hasMessageContaining("each of \"workflows\" needs \"name\", \"binding\" and \"class_name\"");
        assertThatThrownBy(() -> parse("{\"name\":\"shop\",\"workflows\":{}}"))
                .hasMessageContaining("\"workflows\" must be an array");
        assertThatThrownBy(() -> parse("{\"name\":\"shop\",\"workflows\":[{\"name\":\"w\",\"binding\":\"A\",\"class_name\":\"C\"},"
                + "{\"name\":\"w\",\"binding\":\"B\",\"class_name\":\"D\"}]}"))
                .hasMessageContaining("workflow name \"w\" is used by more than one");
    }
}
