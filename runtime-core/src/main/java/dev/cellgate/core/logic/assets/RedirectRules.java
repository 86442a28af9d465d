package dev.cellgate.core.logic.assets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code _redirects} file as Cloudflare reads it: one {@code source destination [status]} rule a
 * line ({@code #} comments, blank lines skipped), status 301/302 (default)/303/307/308 or 200 (a
 * rewrite: the destination is served under the request's URL). A line Cloudflare would ignore is
 * ignored here too and named in {@link #warnings()} so the push can print it: more or fewer than
 * two or three tokens, an unknown status, a source that is not a path, a second rule for the same
 * source, a 200 to another host, a 200 from a splat pattern to an {@code /index} page (Cloudflare calls
 * it an infinite loop: the page's canonical redirect would hit the rule again), a line over 1,000
 * characters, and rules past 2,000 static or 100 dynamic ones.
 */
public final class RedirectRules {
    static final int MAX_LINE = 1000;
    static final int MAX_STATIC = 2000;
    static final int MAX_DYNAMIC = 100;
    private static final Set<Integer> STATUSES = Set.of(200, 301, 302, 303, 307, 308);

    /** What a request's pathname matched: the destination (placeholders filled) and the status. */
    public record Match(String destination, int status) {
        public boolean rewrite() {
            return status == 200;
        }
    }

    private record Rule(String from, RulePattern pattern, String to, int status) {
    }

    private final Map<String, Rule> statics;
    private final List<Rule> dynamics;
    private final List<String> warnings;

    private RedirectRules(Map<String, Rule> statics, List<Rule> dynamics, List<String> warnings) {
        this.statics = statics;
        this.dynamics = dynamics;
        this.warnings = List.copyOf(warnings);
    }

    public static RedirectRules none() {
        return new RedirectRules(Map.of(), List.of(), List.of());
    }

    public static RedirectRules parse(String text) {
        Map<String, Rule> statics = new LinkedHashMap<>();
        List<Rule> dynamics = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].trim();
            String at = "_redirects line " + (n + 1) + ": ";
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.length() > MAX_LINE) {
                warnings.add(at + "longer than " + MAX_LINE + " characters, ignored");
                continue;
            }
            String[] tokens = line.split("\\s+");
            if (tokens.length < 2 || tokens.length > 3) {
                warnings.add(at + "expected 'source destination [status]', got " + tokens.length + " tokens, ignored");
                continue;
            }
            RuleUrls.Read from = RuleUrls.read(tokens[0], true, false, false, false);
            RuleUrls.Read to = RuleUrls.read(tokens[1], false, false, true, true);
            if (from.error() != null || to.error() != null) {
                warnings.add(at + (from.error() != null ? from.error() : to.error()) + ", ignored");
                continue;
            }
            int status;
            try {
                status = tokens.length == 3 ? Integer.parseInt(tokens[2]) : 302;
            } catch (NumberFormatException e) {
                status = -1;
            }
            if (!STATUSES.contains(status)) {
                warnings.add(at + "status " + tokens[2] + " must be one of " + new java.util.TreeSet<>(STATUSES) + ", ignored");
                continue;
            }
            boolean dynamic = from.url().contains("*") || from.url().contains(":");
            if (status == 200 && RuleUrls.hasHost(to.url())) {
                warnings.add(at + "a 200 (rewrite) can only point to a path on this site, ignored");
                continue;
            }
            String toPath = to.url().replaceAll("[?#].*", "");
            if (status == 200 && from.url().contains("*") && (toPath.endsWith("/index.html") || toPath.endsWith("/index"))) {
                warnings.add(at + "infinite loop: the canonical redirect of " + toPath + " would match this rule again, ignored");
                continue;
            }
            if (!seen.add(from.url())) {
                warnings.add(at + "a rule for " + from.url() + " is already defined, ignored");
                continue;
            }
            if (dynamic) {
                if (dynamics.size() >= MAX_DYNAMIC) {
                    warnings.add(at + "more than " + MAX_DYNAMIC + " dynamic rules, ignored");
                    continue;
                }
                try {
                    dynamics.add(new Rule(from.url(), RulePattern.compile(from.url()), to.url(), status));
                } catch (IllegalArgumentException e) {
                    warnings.add(at + e.getMessage() + ", ignored");
                }
            } else {
                if (statics.size() >= MAX_STATIC) {
                    warnings.add(at + "more than " + MAX_STATIC + " static rules, ignored");
                    continue;
                }
                statics.put(from.url(), new Rule(from.url(), null, to.url(), status));
            }
        }
        return new RedirectRules(statics, dynamics, warnings);
    }

    public List<String> warnings() {
        return warnings;
    }

    public boolean isEmpty() {
        return statics.isEmpty() && dynamics.isEmpty();
    }

    /** The first rule for {@code pathname} (a static rule before any pattern), or null. */
    public Match match(String hostname, String pathname) {
        Rule s = statics.get(pathname);
        if (s != null) {
            return new Match(s.to(), s.status());
        }
        for (Rule r : dynamics) {
            Map<String, String> values = r.pattern().match(hostname, pathname);
            if (values != null) {
                return new Match(RulePattern.substitute(r.to(), values), r.status());
            }
        }
        return null;
    }
}
