package dev.cellgate.deploy.push;

import dev.cellgate.core.spi.js.ModuleType;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Wrangler's module rules ({@code rules} in the config, then its defaults), decided as Wrangler
 * 4.86.0 decides them: the defaults are {@code Text} for {@code **}{@code /*.txt, *.html, *.sql},
 * {@code Data} for {@code *.bin}, {@code CompiledWasm} for {@code *.wasm} and {@code *.wasm?module};
 * a rule without {@code fallthrough: true} ends its type, so later rules of that type (a default
 * too) are removed, and a file one of them would have matched is an error naming both. Globs are
 * matched with {@code **} crossing directories, as Wrangler's glob-to-regexp does. Pure: no I/O.
 */
public final class ModuleRules {
    public record Rule(ModuleType type, List<String> globs, boolean fallthrough, List<Pattern> patterns) {
    }

    static final List<Rule> DEFAULTS = List.of(
            rule(ModuleType.TEXT, List.of("**/*.txt", "**/*.html", "**/*.sql"), false),
            rule(ModuleType.DATA, List.of("**/*.bin"), false),
            rule(ModuleType.COMPILED_WASM, List.of("**/*.wasm", "**/*.wasm?module"), false));

    private final List<Rule> rules;
    private final List<Rule> removed;

    private ModuleRules(List<Rule> rules, List<Rule> removed) {
        this.rules = rules;
        this.removed = removed;
    }

    static Rule rule(ModuleType type, List<String> globs, boolean fallthrough) {
        return new Rule(type, List.copyOf(globs), fallthrough, globs.stream().map(ModuleRules::globToRegex).toList());
    }

    /** The config's {@code rules}, then the defaults, with Wrangler's fallthrough semantics. */
    public static ModuleRules parse(JsonArray userRules) {
        List<Rule> all = new ArrayList<>();
        for (Object o : userRules) {
            JsonObject r = (JsonObject) o;
            ModuleType t = ModuleType.byWranglerName(r.getString("type"));
            if (t == ModuleType.SOURCE_MAP) {
                throw new IllegalArgumentException("rules: type SourceMap is not a module rule type (ESModule, CommonJS, Text, Data, "
                        + "CompiledWasm)");
            }
            List<String> globs = new ArrayList<>();
            r.getJsonArray("globs").forEach(g -> globs.add(String.valueOf(g)));
            all.add(rule(t, globs, Boolean.TRUE.equals(r.getValue("fallthrough"))));
        }
        all.addAll(DEFAULTS);
        Set<ModuleType> completed = new HashSet<>();
        List<Rule> kept = new ArrayList<>();
        List<Rule> removed = new ArrayList<>();
        for (Rule r : all) {
            if (completed.contains(r.type())) {
                removed.add(r);
                continue;
            }
            kept.add(r);
            if (!r.fallthrough()) {
                completed.add(r.type());
            }
        }
        return new ModuleRules(kept, removed);
    }

    public List<Rule> rules() {
        return rules;
    }

    /**
     * The type of the file at {@code path} (relative, with {@code /}), or null when no rule matches.
     *
     * @throws IllegalArgumentException when only a rule that a previous one of its type ended matches
     */
    public ModuleType typeOf(String path) {
        for (Rule r : rules) {
            for (Pattern p : r.patterns()) {
                if (p.matcher(path).matches()) {
                    return r.type();
                }
            }
        }
        for (Rule r : removed) {
            for (Pattern p : r.patterns()) {
                if (p.matcher(path).matches()) {
                    throw new IllegalArgumentException("The file " + path + " matched a module rule in your configuration ("
                            + r.type().wranglerName() + " " + r.globs() + "), but was ignored because a previous rule with the "
                            + "same type was not marked as `fallthrough = true`.");
                }
            }
        }
        return null;
    }

    /**
     * The file extensions of the non-JavaScript rules whose globs are {@code **}{@code /*.ext}, by
     * type: esbuild copies such imports beside the bundle (its {@code copy} loader), which is what
     * Wrangler's module collector does. A glob of another shape cannot be told to esbuild.
     */
    public Map<String, ModuleType> copiedExtensions() {
        Map<String, ModuleType> out = new LinkedHashMap<>();
        for (Rule r : rules) {
            if (r.type().isJavaScript()) {
                continue;
            }
            for (String g : r.globs()) {
                String ext = g.replaceFirst("\\?module$", "");
                if (!ext.matches("\\*\\*/\\*\\.[A-Za-z0-9_-]+")) {
                    throw new IllegalArgumentException("rules: the " + r.type().wranglerName() + " glob \"" + g + "\" cannot be "
                            + "bundled by cellgate: with bundling, a rule's globs must be **/*.ext (or set no_bundle)");
                }
                out.putIfAbsent(ext.substring(ext.lastIndexOf('.')), r.type());
            }
        }
        return out;
    }

    /** {@code **} crosses directories (and may be empty, with its slash), {@code *} and {@code ?} do not. */
    static Pattern globToRegex(String glob) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                boolean slash = i + 2 < glob.length() && glob.charAt(i + 2) == '/';
                b.append(slash ? "(?:.*/)?" : ".*");
                i += slash ? 2 : 1;
            } else if (c == '*') {
                b.append("[^/]*");
            } else {
                b.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(b.toString());
    }
}
