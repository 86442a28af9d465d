package dev.cellgate.deploy.secret;

import dev.cellgate.core.logic.SecretNames;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where secret values come from, never the command line (it would be in shell history and in
 * {@code ps}): stdin, or at a terminal a prompt that does not echo; or a JSON file for
 * {@code secret bulk}. No message here ever includes a value.
 */
final class SecretValues {
    /** Cloudflare's limit on the size of one environment variable or secret: 5 KB. */
    static final int MAX_BYTES = 5 * 1024;

    private SecretValues() {
    }

    /**
     * The value of {@code name}: typed at the terminal (unechoed), else all of stdin; trailing
     * whitespace trimmed as Wrangler does (so {@code echo value |} stores {@code value}).
     */
    static String read(Env env, String name) {
        String value;
        if (env.terminal() != null) {
            char[] typed = env.terminal().read("Enter the value of secret " + name + ": ");
            if (typed == null) {
                throw CommandException.refused("secret put " + name + ": no value was entered");
            }
            value = new String(typed);
            Arrays.fill(typed, '\0');
        } else {
            byte[] bytes;
            try {
                bytes = env.in().readAllBytes();
            } catch (IOException e) {
                throw CommandException.failed("secret put " + name + ": cannot read stdin: " + e.getMessage(), e);
            }
            value = utf8(bytes, "stdin");
        }
        value = value.stripTrailing();
        if (value.isEmpty()) {
            throw CommandException.refused("secret put " + name + " reads the value from stdin and got none; pipe it in, e.g. "
                    + "printf %s \"$VALUE\" | deploy-tool secret put " + name + " (or run it at a terminal to be asked)");
        }
        return checkSize(name, value);
    }

    /** A {@code secret bulk} file: a JSON object of name to string value; every problem named, nothing taken from a bad file. */
    static Map<String, String> bulk(Path file) {
        String text;
        try {
            text = utf8(Files.readAllBytes(file), file.toString());
        } catch (IOException e) {
            throw CommandException.usage("cannot read " + file + ": " + e.getMessage());
        }
        JsonObject o;
        try {
            o = new JsonObject(text);
        } catch (DecodeException | ClassCastException e) {
            // the parser's message would quote the file, values included
            throw CommandException.refused(file + " is not a JSON object of secret names to string values");
        }
        List<String> problems = new ArrayList<>();
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : o) {
            String p = SecretNames.problem(e.getKey());
            if (p != null) {
                problems.add(p);
            } else if (!(e.getValue() instanceof String s)) {
                problems.add("the value of " + e.getKey() + " is not a string (" + jsonType(e.getValue()) + ")");
            } else if (s.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
                problems.add(tooLarge(e.getKey(), s));
            } else {
                out.put(e.getKey(), s);
            }
        }
        if (!problems.isEmpty()) {
            throw CommandException.refused(file + ": " + String.join("; ", problems) + " (nothing was stored)");
        }
        if (out.isEmpty()) {
            throw CommandException.refused(file + " holds no secrets (expected {\"NAME\": \"value\", ...})");
        }
        return out;
    }

    private static String jsonType(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Number) {
            return "a number";
        }
        if (v instanceof Boolean) {
            return "a boolean";
        }
        return v instanceof JsonObject ? "an object" : "an array";
    }

    private static String checkSize(String name, String value) {
        if (value.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw CommandException.refused(tooLarge(name, value));
        }
        return value;
    }

    private static String tooLarge(String name, String value) {
        return "the value of " + name + " is " + value.getBytes(StandardCharsets.UTF_8).length + " bytes; a secret holds at most "
                + MAX_BYTES + " (Cloudflare's limit)";
    }

    private static String utf8(byte[] bytes, String where) {
        try {
            CharBuffer c = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return c.toString();
        } catch (CharacterCodingException e) {
            throw CommandException.refused(where + " is not UTF-8 text (a secret is a string)");
        }
    }
}
