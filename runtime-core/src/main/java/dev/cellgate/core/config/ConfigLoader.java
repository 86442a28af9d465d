package dev.cellgate.core.config;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads node.json (optional) and the environment into a {@link NodeConfig}. The environment wins
 * over the file. Anything unknown or malformed is a {@link ConfigException} naming the setting and
 * the value; nothing falls back to a default silently.
 */
public final class ConfigLoader {
    /** SPEC 14's optional key for sealing secrets: refused by name until sealing exists. */
    static final String SECRETS_KEY = "CELLD_SECRETS_KEY";

    private ConfigLoader() {
    }

    public static NodeConfig load(Path confFile, Map<String, String> env) {
        Map<Setting, Object> values = new LinkedHashMap<>();
        Map<String, String> vars = new TreeMap<>();
        if (confFile != null) {
            readFile(confFile, values, vars);
        }
        readEnv(env, values, vars);
        return new NodeConfig(values, vars);
    }

    private static void readFile(Path file, Map<Setting, Object> values, Map<String, String> vars) {
        JsonObject json;
        try {
            json = new JsonObject(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new ConfigException("config file " + file + " does not exist");
        } catch (IOException e) {
            throw new ConfigException("config file " + file + " cannot be read: " + e.getMessage());
        } catch (DecodeException | ClassCastException e) {
            throw new ConfigException("config file " + file + " is not a JSON object: " + firstLine(e.getMessage()));
        }
        for (Map.Entry<String, Object> e : json) {
            String key = e.getKey();
            Object raw = e.getValue();
            if (key.equals("vars")) {
                if (!(raw instanceof JsonObject obj)) {
                    throw new ConfigException(file + ": key \"vars\" must be an object of strings");
                }
                for (Map.Entry<String, Object> v : obj) {
                    if (!(v.getValue() instanceof String s)) {
                        throw new ConfigException(file + ": vars." + v.getKey() + " = " + v.getValue() + " must be a string");
                    }
                    vars.put(v.getKey(), s);
                }
                continue;
            }
            Setting s = Settings.byKey(key).orElseThrow(() -> new ConfigException(
                    file + ": unknown key \"" + key + "\" (see --help for the keys)"));
            String where = file + ": key \"" + key + "\" (" + s.env() + ")";
            String text = fileValueAsText(s, raw);
            if (text == null) {
                throw new ConfigException("invalid " + where + "=" + (s.type() == SettingType.SECRET ? "(hidden)" : render(raw))
                        + ": must be " + jsonTypeOf(s.type())
                        + " (" + s.type().expected() + ")");
            }
            values.put(s, parse(s, text, where, raw));
        }
    }

    /**
     * The file value as the text the setting's type parses, or null when its JSON type is wrong:
     * numbers are JSON integers, flags JSON booleans (or the integers 0 and 1), everything else a
     * JSON string. {@code "ttl_ms": "5000"} is refused: a quoted number in a JSON file is a typo
     * somewhere (a template, a generator), not an intent to guess.
     */
    private static String fileValueAsText(Setting s, Object raw) {
        return switch (s.type()) {
            case POSITIVE_INT, NON_NEGATIVE_INT -> raw instanceof Integer || raw instanceof Long ? raw.toString() : null;
            case BOOL -> raw instanceof Boolean b ? (b ? "1" : "0")
                    : raw instanceof Integer || raw instanceof Long ? raw.toString() : null;
            default -> raw instanceof String str ? str : null;
        };
    }

    private static String jsonTypeOf(SettingType t) {
        return switch (t) {
            case POSITIVE_INT, NON_NEGATIVE_INT -> "a JSON number";
            case BOOL -> "true or false";
            default -> "a JSON string";
        };
    }

    private static void readEnv(Map<String, String> env, Map<Setting, Object> values, Map<String, String> vars) {
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            String name = e.getKey();
            if (name.startsWith(Settings.VAR_PREFIX)) {
                String var = name.substring(Settings.VAR_PREFIX.length());
                if (var.isEmpty()) {
                    throw new ConfigException(name + " names no variable (use " + Settings.VAR_PREFIX + "<NAME>)");
                }
                vars.put(var, e.getValue());
                continue;
            }
            var setting = Settings.byEnv(name);
            if (setting.isEmpty()) {
                if (name.equals(SECRETS_KEY)) {
                    throw new ConfigException(SECRETS_KEY + " is set, but sealing secrets with a key the nodes hold (SPEC 14) is not "
                            + "implemented: secret values are stored unsealed in the bucket (docs/deploy.md, secrets). Unset it");
                }
                if (name.startsWith("CELLD_")) {
                    // The value is not shown: a mistyped secret setting (CELLD_OPERATOR_TOKEN) would print the secret.
                    throw new ConfigException("unknown setting " + name + " (value not shown, " + e.getValue().length()
                            + " characters; see --help for the settings)");
                }
                continue;
            }
            Setting s = setting.get();
            values.put(s, parse(s, e.getValue(), s.env(), e.getValue()));
        }
    }

    private static Object parse(Setting s, String text, String where, Object shown) {
        try {
            return s.type().parse(text);
        } catch (IllegalArgumentException ex) {
            // a secret is never echoed, not even a wrong one (it may be the right one with a typo)
            String value = s.type() == SettingType.SECRET ? "(hidden, " + text.length() + " characters)" : render(shown);
            throw new ConfigException("invalid " + where + "=" + value + ": " + ex.getMessage());
        }
    }

    private static String render(Object v) {
        return v instanceof String s ? "'" + s + "'" : String.valueOf(v);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
