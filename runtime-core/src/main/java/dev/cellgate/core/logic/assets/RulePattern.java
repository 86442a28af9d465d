package dev.cellgate.core.logic.assets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One path pattern of {@code _headers} or {@code _redirects}, as Cloudflare's rules engine reads it:
 * {@code *} matches anything (captured as {@code :splat}), {@code :name} one path segment
 * ({@code [^/]+}), or in the host of an {@code https://host/...} pattern one host label
 * ({@code [^/.]+}); everything else literally, the whole pathname anchored. A pattern that starts
 * with {@code https://} is matched against {@code https://<hostname><pathname>}, any other against
 * the pathname.
 */
public final class RulePattern {
    private static final Pattern PLACEHOLDER = Pattern.compile(":[A-Za-z]\\w*");
    /** The characters JavaScript's escapeRegex escapes: a host placeholder must be followed by one. */
    private static final String ESCAPED = "-/\\^$*+?.()|[]{}";

    private final String source;
    private final boolean crossHost;
    private final Pattern regex;
    /** Placeholder name of each capturing group, in order ({@code splat} for a {@code *}). */
    private final List<String> names;

    private RulePattern(String source, boolean crossHost, Pattern regex, List<String> names) {
        this.source = source;
        this.crossHost = crossHost;
        this.regex = regex;
        this.names = names;
    }

    /** @throws IllegalArgumentException where the rules engine would drop the rule (a name captured twice) */
    public static RulePattern compile(String rule) {
        boolean crossHost = rule.startsWith("https://");
        int hostEnd = crossHost ? indexOrEnd(rule, '/', "https://".length()) : 0;
        StringBuilder re = new StringBuilder("^");
        List<String> names = new ArrayList<>();
        int i = 0;
        while (i < rule.length()) {
            char c = rule.charAt(i);
            if (c == '*') {
                names.add("splat");
                re.append("(.*)");
                i++;
                continue;
            }
            Matcher m = PLACEHOLDER.matcher(rule).region(i, rule.length());
            if (c == ':' && m.lookingAt()) {
                String name = rule.substring(i + 1, m.end());
                int after = m.end();
                boolean inHost = crossHost && i < hostEnd && after < rule.length() && ESCAPED.indexOf(rule.charAt(after)) >= 0;
                names.add(name);
                re.append(inHost ? "([^/.]+)" : "([^/]+)");
                i = after;
                continue;
            }
            re.append(Pattern.quote(String.valueOf(c)));
            i++;
        }
        re.append('$');
        for (int a = 0; a < names.size(); a++) {
            if (names.subList(a + 1, names.size()).contains(names.get(a))) {
                throw new IllegalArgumentException("'" + rule + "' captures :" + names.get(a)
                        + " twice (a second * or a repeated placeholder), which Cloudflare's rules engine drops");
            }
        }
        return new RulePattern(rule, crossHost, Pattern.compile(re.toString(), Pattern.DOTALL), List.copyOf(names));
    }

    private static int indexOrEnd(String s, char c, int from) {
        int i = s.indexOf(c, from);
        return i < 0 ? s.length() : i;
    }

    public String source() {
        return source;
    }

    /** The placeholder values by name when the request matches, else null. */
    public Map<String, String> match(String hostname, String pathname) {
        Matcher m = regex.matcher(crossHost ? "https://" + hostname + pathname : pathname);
        if (!m.matches()) {
            return null;
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int g = 0; g < names.size(); g++) {
            values.put(names.get(g), m.group(g + 1));
        }
        return values;
    }

    /** Replaces every {@code :name} in {@code template}, name by name in capture order, as the rules engine does. */
    public static String substitute(String template, Map<String, String> values) {
        String out = template;
        for (Map.Entry<String, String> e : values.entrySet()) {
            out = out.replace(":" + e.getKey(), e.getValue());
        }
        return out;
    }
}
