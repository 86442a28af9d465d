package dev.cellgate.core.records;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/** Strict field access for record decoding: a missing or mistyped field is a {@link MalformedRecordException}. */
final class Fields {
    private final JsonObject json;
    private final String what;

    private Fields(JsonObject json, String what) {
        this.json = json;
        this.what = what;
    }

    static Fields parse(byte[] bytes, String what) {
        try {
            return new Fields(new JsonObject(new String(bytes, StandardCharsets.UTF_8)), what);
        } catch (DecodeException | ClassCastException e) {
            throw new MalformedRecordException(what + " is not a JSON object");
        }
    }

    static Fields of(JsonObject json, String what) {
        return new Fields(json, what);
    }

    JsonObject json() {
        return json;
    }

    String text(String name) {
        Object v = json.getValue(name);
        if (!(v instanceof String s)) {
            throw new MalformedRecordException(what + ": field '" + name + "' must be a string, got " + v);
        }
        return s;
    }

    String textOrNull(String name) {
        Object v = json.getValue(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof String s)) {
            throw new MalformedRecordException(what + ": field '" + name + "' must be a string or null, got " + v);
        }
        return s;
    }

    long integer(String name) {
        Object v = json.getValue(name);
        if (!(v instanceof Integer || v instanceof Long)) {
            throw new MalformedRecordException(what + ": field '" + name + "' must be an integer, got " + v);
        }
        return ((Number) v).longValue();
    }

    boolean bool(String name) {
        Object v = json.getValue(name);
        if (!(v instanceof Boolean b)) {
            throw new MalformedRecordException(what + ": field '" + name + "' must be a boolean, got " + v);
        }
        return b;
    }

    JsonObject object(String name) {
        Object v = json.getValue(name);
        if (!(v instanceof JsonObject o)) {
            throw new MalformedRecordException(what + ": field '" + name + "' must be an object, got " + v);
        }
        return o;
    }

    static byte[] bytes(JsonObject o) {
        return o.encode().getBytes(StandardCharsets.UTF_8);
    }
}
