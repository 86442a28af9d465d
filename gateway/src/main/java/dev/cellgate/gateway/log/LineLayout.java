package dev.cellgate.gateway.log;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.LayoutBase;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.event.KeyValuePair;

/**
 * One log line per event: a JSON object by default, or human-readable text
 * ({@code CELLD_LOG_FORMAT=text}). Our own events log a dotted name as the message
 * ({@code cell.released}) with key/values; it becomes {@code "event"}. Other messages (from
 * libraries) become {@code "event":"log"} with the text in {@code "message"}. Every line carries
 * the node id once it is known, and the MDC: {@code request_id} and {@code scope} of the work the
 * thread is doing (see {@code LogContext}). A key/value of the event with the same name as an MDC
 * entry wins, so a key appears once per line. A key/value named like a field the line writes itself
 * ({@code ts level event logger}, and {@code message node stack} when it has them), or repeated, is written as {@code kv_<key>}
 * (then {@code kv_<key>_2}, …): strict JSON parsers refuse a line with a duplicate key.
 */
public final class LineLayout extends LayoutBase<ILoggingEvent> {
    private static final Pattern EVENT_NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+|[a-z]+_[a-z_]+");

    private static volatile String nodeId;
    private static volatile boolean text = "text".equals(System.getProperty("cellgate.log.format"));

    /** Set once the node id is known; every later line carries it. */
    public static void nodeId(String id) {
        nodeId = id;
    }

    public static void textMode(boolean on) {
        text = on;
    }

    @Override
    public String doLayout(ILoggingEvent e) {
        return text ? textLine(e) : jsonLine(e);
    }

    private String jsonLine(ILoggingEvent e) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"ts\":\"").append(Instant.ofEpochMilli(e.getTimeStamp())).append('"');
        field(b, "level", e.getLevel().toString());
        String msg = e.getFormattedMessage();
        boolean isEvent = msg != null && EVENT_NAME.matcher(msg).matches();
        field(b, "event", isEvent ? msg : "log");
        if (!isEvent) {
            field(b, "message", msg);
        }
        if (nodeId != null) {
            field(b, "node", nodeId);
        }
        List<KeyValuePair> kvs = e.getKeyValuePairs();
        for (Map.Entry<String, String> m : e.getMDCPropertyMap().entrySet()) {
            if (!hasKey(kvs, m.getKey())) {
                field(b, m.getKey(), m.getValue());
            }
        }
        if (kvs != null) {
            java.util.Set<String> written = lineFields(isEvent, e.getThrowableProxy() != null);
            for (KeyValuePair kv : kvs) {
                b.append(",\"");
                escape(b, uniqueKey(kv.key, written));
                b.append("\":");
                value(b, kv.value);
            }
        }
        field(b, "logger", e.getLoggerName());
        IThrowableProxy t = e.getThrowableProxy();
        if (t != null) {
            field(b, "stack", ThrowableProxyUtil.asString(t));
        }
        return b.append("}\n").toString();
    }

    private String textLine(ILoggingEvent e) {
        StringBuilder b = new StringBuilder(160);
        b.append(Instant.ofEpochMilli(e.getTimeStamp())).append(' ')
                .append(String.format("%-5s", e.getLevel())).append(' ').append(e.getFormattedMessage());
        if (nodeId != null) {
            b.append(" node=").append(nodeId);
        }
        List<KeyValuePair> kvs = e.getKeyValuePairs();
        for (Map.Entry<String, String> m : e.getMDCPropertyMap().entrySet()) {
            if (!hasKey(kvs, m.getKey())) {
                b.append(' ').append(m.getKey()).append('=').append(m.getValue());
            }
        }
        if (kvs != null) {
            for (KeyValuePair kv : kvs) {
                b.append(' ').append(kv.key).append('=').append(kv.value);
            }
        }
        IThrowableProxy t = e.getThrowableProxy();
        if (t != null) {
            b.append('\n').append(ThrowableProxyUtil.asString(t));
        }
        return b.append('\n').toString();
    }

    /** The keys the line writes itself (the MDC entries a key/value replaces are not among them). */
    private static java.util.Set<String> lineFields(boolean isEvent, boolean hasStack) {
        java.util.Set<String> f = new java.util.HashSet<>(java.util.List.of("ts", "level", "event", "logger"));
        if (!isEvent) {
            f.add("message");
        }
        if (nodeId != null) {
            f.add("node");
        }
        if (hasStack) {
            f.add("stack");
        }
        return f;
    }

    /** {@code key}, or {@code kv_<key>[_n]} when the line already has it; records the key used. */
    private static String uniqueKey(String key, java.util.Set<String> written) {
        String k = key == null ? "kv_null" : key;
        if (written.contains(k)) {
            String base = "kv_" + key;
            k = base;
            for (int n = 2; written.contains(k); n++) {
                k = base + "_" + n;
            }
        }
        written.add(k);
        return k;
    }

    private static boolean hasKey(List<KeyValuePair> kvs, String key) {
        if (kvs != null) {
            for (KeyValuePair kv : kvs) {
                if (key.equals(kv.key)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void field(StringBuilder b, String k, String v) {
        b.append(",\"");
        escape(b, k);
        b.append("\":\"");
        escape(b, v == null ? "" : v);
        b.append('"');
    }

    private static void value(StringBuilder b, Object v) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof RawJson raw) {
            b.append(raw.json());
        } else {
            b.append('"');
            escape(b, v.toString());
            b.append('"');
        }
    }

    static void escape(StringBuilder b, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
    }

    /** A key/value that is already JSON (an object or array), written as is. */
    public record RawJson(String json) {
        @Override
        public String toString() {
            return json;
        }
    }
}
