package dev.cellgate.sim;

import java.nio.charset.StandardCharsets;
import java.util.TreeSet;

/**
 * The simulated cell's durable state: the ids of the writes it holds, its one alarm (as on
 * Cloudflare, setting an alarm replaces the previous one), and the alarm ids that fired or were
 * replaced (or deleted). Only ever grows, so each commit of it holds everything before it.
 */
final class CellState {
    final TreeSet<Long> writes = new TreeSet<>();
    final TreeSet<Long> fired = new TreeSet<>();
    final TreeSet<Long> replaced = new TreeSet<>();
    long alarmId = -1;
    long alarmAt;

    boolean hasAlarm() {
        return alarmId >= 0;
    }

    CellState copy() {
        return decode(encode());
    }

    byte[] encode() {
        StringBuilder b = new StringBuilder();
        join(b.append("w="), writes);
        b.append(";a=").append(alarmId).append('@').append(alarmAt);
        join(b.append(";f="), fired);
        join(b.append(";r="), replaced);
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    static CellState decode(byte[] bytes) {
        CellState s = new CellState();
        for (String part : new String(bytes, StandardCharsets.UTF_8).split(";")) {
            String v = part.substring(2);
            switch (part.charAt(0)) {
                case 'w' -> split(v, s.writes);
                case 'f' -> split(v, s.fired);
                case 'r' -> split(v, s.replaced);
                case 'a' -> {
                    int at = v.indexOf('@');
                    s.alarmId = Long.parseLong(v.substring(0, at));
                    s.alarmAt = Long.parseLong(v.substring(at + 1));
                }
                default -> throw new IllegalStateException("bad cell state part " + part);
            }
        }
        return s;
    }

    private static void join(StringBuilder b, TreeSet<Long> ids) {
        boolean first = true;
        for (long id : ids) {
            b.append(first ? "" : ",").append(id);
            first = false;
        }
    }

    private static void split(String v, TreeSet<Long> into) {
        if (!v.isEmpty()) {
            for (String id : v.split(",")) {
                into.add(Long.parseLong(id));
            }
        }
    }
}
