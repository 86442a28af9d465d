package dev.cellgate.gateway.peer;

import dev.cellgate.core.logic.WakeEntryVerdict;
import io.vertx.core.json.JsonObject;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The waker's peer call and its answer on the wire: {@code POST /peer/v1/wake/<scope>?entry_minute_ms=N}
 * names the due wake entry the owner must judge; the answer's body is {@code {"entry":"kept"}},
 * {@code "dropped"} or {@code "no_class"}. A node that predates this answers an empty body, read
 * as {@link WakeEntryVerdict.Reply#UNKNOWN} (the waker then rests the entry and keeps it).
 */
public final class WakeAnswer {
    public static final String ENTRY_PARAM = "entry_minute_ms";

    private WakeAnswer() {
    }

    /** The query to append to the wake path ({@code ""} when there is no entry to judge). */
    public static String query(OptionalLong entryMinuteMs) {
        return entryMinuteMs.isEmpty() ? "" : "?" + ENTRY_PARAM + "=" + entryMinuteMs.getAsLong();
    }

    /** The entry a wake request names; empty when none; throws {@link IllegalArgumentException} when malformed. */
    public static OptionalLong entry(String param) {
        if (param == null) {
            return OptionalLong.empty();
        }
        if (!param.matches("[0-9]{1,18}")) {
            throw new IllegalArgumentException(ENTRY_PARAM + " must be a minute in epoch milliseconds, got '" + param + "'");
        }
        return OptionalLong.of(Long.parseLong(param));
    }

    public static String encode(WakeEntryVerdict.Reply reply) {
        return new JsonObject().put("entry", reply.name().toLowerCase(Locale.ROOT)).encode();
    }

    public static WakeEntryVerdict.Reply decode(String body) {
        try {
            Object v = new JsonObject(body).getValue("entry");
            if (v instanceof String s) {
                for (WakeEntryVerdict.Reply r : WakeEntryVerdict.Reply.values()) {
                    if (r != WakeEntryVerdict.Reply.UNKNOWN && r.name().toLowerCase(Locale.ROOT).equals(s)) {
                        return r;
                    }
                }
            }
        } catch (RuntimeException e) {
            // an empty or foreign body: unknown
        }
        return WakeEntryVerdict.Reply.UNKNOWN;
    }
}
