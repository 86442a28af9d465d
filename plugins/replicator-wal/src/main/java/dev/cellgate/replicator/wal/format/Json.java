package dev.cellgate.replicator.wal.format;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/** Strict reading of the small JSON records: a missing or mistyped field names itself and the record. */
final class Json {
    private Json() {
    }

    static JsonObject parse(byte[] bytes, String what) {
        try {
            return new JsonObject(new String(bytes, StandardCharsets.UTF_8));
        } catch (DecodeException | ClassCastException e) {
            throw new IllegalArgumentException(what + " is not a JSON object: " + e.getMessage());
        }
    }

    static byte[] bytes(JsonObject j) {
        return j.encode().getBytes(StandardCharsets.UTF_8);
    }

    static long reqLong(JsonObject j, String field, String what) {
        Object v = j.getValue(field);
        if (!(v instanceof Number n) || n.doubleValue() != n.longValue() || n.longValue() < 0) {
            throw new IllegalArgumentException(what + ": field '" + field + "' must be a non-negative integer, got " + v);
        }
        return n.longValue();
    }

    static String reqString(JsonObject j, String field, String what) {
        Object v = j.getValue(field);
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException(what + ": field '" + field + "' must be a string, got " + v);
        }
        return s;
    }

    static void reqFormat(JsonObject j, int format, String what) {
        if (reqLong(j, "format", what) != format) {
            throw new IllegalArgumentException(what + ": unsupported format " + j.getValue("format"));
        }
    }
}
