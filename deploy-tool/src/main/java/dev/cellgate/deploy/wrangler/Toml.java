package dev.cellgate.deploy.wrangler;

import io.vertx.core.json.JsonObject;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * wrangler.toml: parsed by Jackson's TOML 1.0 reader into the same JSON object a wrangler.json
 * would give, so one validator reads both. Dates and times stay strings (a TOML local date
 * {@code 2025-04-01} is the string Wrangler's JSON form holds).
 */
public final class Toml {
    private static final TomlMapper TOML = TomlMapper.builder().build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Toml() {
    }

    /** @throws IllegalArgumentException with the parser's message and position */
    public static JsonObject parse(String text) {
        try {
            JsonNode tree = TOML.readTree(text);
            if (tree == null || tree.isMissingNode()) {
                return new JsonObject();
            }
            return new JsonObject(JSON.writeValueAsString(tree));
        } catch (JacksonException e) {
            throw new IllegalArgumentException(e.getOriginalMessage() + (e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        }
    }
}
