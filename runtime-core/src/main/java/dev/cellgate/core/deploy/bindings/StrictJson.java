package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Strict reading of one JSON object of the manifest's binding schema: every field has one type,
 * a required field must be there, and a field the schema does not know is an error (a manifest
 * written by a newer deploy-tool is refused by name, never half understood).
 */
final class StrictJson {
    private final JsonObject json;
    private final String what;

    StrictJson(JsonObject json, String what) {
        this.json = json;
        this.what = what;
    }

    static StrictJson of(Object value, String what) {
        if (!(value instanceof JsonObject o)) {
            throw new IllegalArgumentException(what + " must be an object, got " + value);
        }
        return new StrictJson(o, what);
    }

    String what() {
        return what;
    }

    /** Refuses any field outside {@code known}. */
    StrictJson only(Set<String> known) {
        for (String k : json.fieldNames()) {
            if (!known.contains(k)) {
                throw new IllegalArgumentException(what + ": unknown field '" + k + "' (known: " + new java.util.TreeSet<>(known) + ")");
            }
        }
        return this;
    }

    String text(String name) {
        String s = textOrNull(name);
        if (s == null) {
            throw new IllegalArgumentException(what + ": field '" + name + "' is required");
        }
        return s;
    }

    String textOrNull(String name) {
        Object v = json.getValue(name);
        if (v != null && !(v instanceof String)) {
            throw new IllegalArgumentException(what + ": field '" + name + "' must be a string, got " + v);
        }
        return (String) v;
    }

    Long integerOrNull(String name) {
        Object v = json.getValue(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Integer || v instanceof Long)) {
            throw new IllegalArgumentException(what + ": field '" + name + "' must be an integer, got " + v);
        }
        return ((Number) v).longValue();
    }

    boolean bool(String name, boolean otherwise) {
        Object v = json.getValue(name);
        if (v == null) {
            return otherwise;
        }
        if (!(v instanceof Boolean b)) {
            throw new IllegalArgumentException(what + ": field '" + name + "' must be true or false, got " + v);
        }
        return b;
    }

    List<String> texts(String name) {
        Object v = json.getValue(name);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof JsonArray a)) {
            throw new IllegalArgumentException(what + ": field '" + name + "' must be an array of strings, got " + v);
        }
        List<String> out = new ArrayList<>();
        for (Object e : a) {
            if (!(e instanceof String s)) {
                throw new IllegalArgumentException(what + ": field '" + name + "' must hold strings only, got " + e);
            }
            out.add(s);
        }
        return List.copyOf(out);
    }

    JsonObject objectOrNull(String name) {
        Object v = json.getValue(name);
        if (v != null && !(v instanceof JsonObject)) {
            throw new IllegalArgumentException(what + ": field '" + name + "' must be an object, got " + v);
        }
        return v == null ? null : ((JsonObject) v).copy();
    }

    boolean has(String name) {
        return json.containsKey(name);
    }

    Object raw(String name) {
        return json.getValue(name);
    }

    /** Puts {@code value} unless it is null: optional fields are left out of what is written. */
    static JsonObject putIf(JsonObject o, String name, Object value) {
        return value == null ? o : o.put(name, value);
    }
}
