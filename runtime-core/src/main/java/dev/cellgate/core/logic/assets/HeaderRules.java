package dev.cellgate.core.logic.assets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A {@code _headers} file as Cloudflare reads it: a URL pattern on a line that starts with {@code /}
 * or {@code https://}, then {@code Name: value} lines it sets and {@code ! Name} lines it detaches
 * (indentation is customary, not required: any other line is a header line). Patterns use
 * {@link RulePattern} ({@code *} as {@code :splat}, {@code :name}, an {@code https://host/...}
 * prefix); values may name those placeholders. Every matching rule applies, in file order, to
 * every asset response (redirects and 404s too): a detached header is removed, a header the rules
 * already set gets {@code ", value"} appended, any other is set (replacing a default). Lines
 * Cloudflare ignores (a header line before any pattern, no colon, over 2,000 characters, rules past
 * 100) are ignored and named in {@link #warnings()}.
 */
public final class HeaderRules {
    static final int MAX_LINE = 2000;
    static final int MAX_RULES = 100;

    private record Rule(RulePattern pattern, Map<String, String> set, Set<String> unset) {
    }

    private final List<Rule> rules;
    private final List<String> warnings;

    private HeaderRules(List<Rule> rules, List<String> warnings) {
        this.rules = List.copyOf(rules);
        this.warnings = List.copyOf(warnings);
    }

    public static HeaderRules none() {
        return new HeaderRules(List.of(), List.of());
    }

    public static HeaderRules parse(String text) {
        List<Rule> rules = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Rule current = null;
        boolean skipping = false;
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].trim();
            String at = "_headers line " + (n + 1) + ": ";
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.length() > MAX_LINE) {
                warnings.add(at + "longer than " + MAX_LINE + " characters, ignored");
                continue;
            }
            if (line.startsWith("/") || line.startsWith("https://")) {
                current = null;
                skipping = false;
                if (rules.size() >= MAX_RULES) {
                    warnings.add(at + "more than " + MAX_RULES + " rules, ignored");
                    skipping = true;
                    continue;
                }
                RuleUrls.Read url = RuleUrls.read(line, false, true, false, false);
                if (url.error() != null) {
                    warnings.add(at + url.error() + ", ignored");
                    skipping = true;
                    continue;
                }
                try {
                    current = new Rule(RulePattern.compile(url.url()), new LinkedHashMap<>(), new LinkedHashSet<>());
                    rules.add(current);
                } catch (IllegalArgumentException e) {
                    warnings.add(at + e.getMessage() + ", ignored");
                    skipping = true;
                }
                continue;
            }
            if (skipping) {
                continue;
            }
            if (current == null) {
                warnings.add(at + "a header before any URL pattern, ignored");
                continue;
            }
            if (line.startsWith("!")) {
                String name = line.substring(1).trim().toLowerCase(Locale.ROOT);
                if (!name.isEmpty()) {
                    current.unset().add(name);
                }
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                warnings.add(at + "expected 'Name: value' or '! Name', ignored");
                continue;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            current.set().merge(name, value, (a, b) -> a + ", " + b);
        }
        return new HeaderRules(rules, warnings);
    }

    public List<String> warnings() {
        return warnings;
    }

    /**
     * Applies every matching rule to {@code headers} (lower-case names, in place).
     */
    public void apply(String hostname, String pathname, Map<String, String> headers) {
        Set<String> setByRules = new LinkedHashSet<>();
        for (Rule r : rules) {
            Map<String, String> values = r.pattern().match(hostname, pathname);
            if (values == null) {
                continue;
            }
            for (String name : r.unset()) {
                headers.remove(name);
            }
            for (Map.Entry<String, String> e : r.set().entrySet()) {
                String value = RulePattern.substitute(e.getValue(), values);
                if (setByRules.add(e.getKey())) {
                    headers.put(e.getKey(), value);
                } else {
                    headers.merge(e.getKey(), value, (a, b) -> a + ", " + b);
                }
            }
        }
    }
}
