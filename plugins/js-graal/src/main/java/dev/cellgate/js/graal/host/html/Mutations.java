package dev.cellgate.js.graal.host.html;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * What handlers did to one token, in lol-html's model: content inserted before it (in call order),
 * after it (each call lands right after the token, so the last call comes first), a replacement, and
 * whether the token itself is removed. Serialized as before + (removed ? replacement : token) + after.
 */
final class Mutations {
    private final List<byte[]> before = new ArrayList<>(2);
    private final List<byte[]> after = new ArrayList<>(2);
    private byte[] replacement;
    boolean removed;

    Mutations copy() {
        Mutations m = new Mutations();
        m.before.addAll(before);
        m.after.addAll(after);
        m.replacement = replacement;
        m.removed = removed;
        return m;
    }

    void before(byte[] content) {
        before.add(content);
    }

    void after(byte[] content) {
        after.add(0, content);
    }

    void setAfter(byte[] content) {
        after.clear();
        after.add(content);
    }

    void clearBefore() {
        before.clear();
    }

    void replace(byte[] content) {
        removed = true;
        replacement = content;
    }

    void remove() {
        removed = true;
    }

    void writeBefore(ByteArrayOutputStream out) {
        for (byte[] b : before) {
            out.writeBytes(b);
        }
    }

    /** The token's place: its replacement if removed, else {@code token} (null writes nothing). */
    void writeToken(ByteArrayOutputStream out, byte[] token, int off, int len) {
        if (removed) {
            if (replacement != null) {
                out.writeBytes(replacement);
            }
        } else if (token != null) {
            out.write(token, off, len);
        }
    }

    void writeAfter(ByteArrayOutputStream out) {
        for (byte[] b : after) {
            out.writeBytes(b);
        }
    }
}
