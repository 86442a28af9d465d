package dev.cellgate.deploy.wrangler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** wrangler.toml reads into the JSON a wrangler.json of the same keys holds. */
class TomlTest {

    @Test
    void tablesArraysOfTablesAndDatesReadAsTheirJsonForm() {
        JsonObject o = Toml.parse("""
                name = "app" # a comment
                main = 'src/index.ts'
                compatibility_date = 2025-04-01
                compatibility_flags = ["nodejs_compat"]
                workers_dev = false

                [vars]
                GREETING = "hi"
                LIMIT = 5

                [[durable_objects.bindings]]
                name = "ROOMS"
                class_name = "Room"

                [env.staging.vars]
                GREETING = "staging"
                """);
        assertThat(o).isEqualTo(new JsonObject("""
                {"name":"app","main":"src/index.ts","compatibility_date":"2025-04-01","compatibility_flags":["nodejs_compat"],
                 "workers_dev":false,"vars":{"GREETING":"hi","LIMIT":5},
                 "durable_objects":{"bindings":[{"name":"ROOMS","class_name":"Room"}]},
                 "env":{"staging":{"vars":{"GREETING":"staging"}}}}
                """));
    }

    @Test
    void badTomlSaysWhere() {
        assertThatThrownBy(() -> Toml.parse("name = \"a\"\nname = \"b\"\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Duplicate key").hasMessageContaining("(line ");
        assertThatThrownBy(() -> Toml.parse("[vars\nA = 1\n")).isInstanceOf(IllegalArgumentException.class);
    }
}
