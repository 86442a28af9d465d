package dev.cellgate.core.logic.assets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The limits and refusals Cloudflare documents for _redirects and _headers, each named in a warning. */
class RuleFilesTest {
    @Test
    void staticRedirectsPastTwoThousandAreIgnoredAndNamed() {
        String text = IntStream.rangeClosed(1, 2001).mapToObj(i -> "/s" + i + " /t" + i + " 301").collect(Collectors.joining("\n"));
        RedirectRules rules = RedirectRules.parse(text);
        assertThat(rules.match("h", "/s2000")).isEqualTo(new RedirectRules.Match("/t2000", 301));
        assertThat(rules.match("h", "/s2001")).isNull();
        assertThat(rules.warnings()).containsExactly("_redirects line 2001: more than 2000 static rules, ignored");
    }

    @Test
    void dynamicRedirectsPastOneHundredAreIgnoredAndNamed() {
        String text = IntStream.rangeClosed(1, 101).mapToObj(i -> "/d" + i + "/* /t/:splat").collect(Collectors.joining("\n"));
        RedirectRules rules = RedirectRules.parse(text);
        assertThat(rules.match("h", "/d100/x")).isEqualTo(new RedirectRules.Match("/t/x", 302));
        assertThat(rules.match("h", "/d101/x")).isNull();
        assertThat(rules.warnings()).containsExactly("_redirects line 101: more than 100 dynamic rules, ignored");
    }

    @Test
    void badRedirectLinesAreIgnoredWithTheirReason() {
        RedirectRules rules = RedirectRules.parse(String.join("\n",
                "/a /b 418", "/a", "/x" + "y".repeat(1000) + " /b", "/p https://e.com/ 200", "/q/* /q/index.html 200",
                "/r /b", "/r /c", "/t/:id/:id /u"));
        assertThat(rules.isEmpty()).isFalse();
        assertThat(rules.match("h", "/r")).isEqualTo(new RedirectRules.Match("/b", 302));
        assertThat(rules.warnings()).containsExactly(
                "_redirects line 1: status 418 must be one of [200, 301, 302, 303, 307, 308], ignored",
                "_redirects line 2: expected 'source destination [status]', got 1 tokens, ignored",
                "_redirects line 3: longer than 1000 characters, ignored",
                "_redirects line 4: a 200 (rewrite) can only point to a path on this site, ignored",
                "_redirects line 5: infinite loop: the canonical redirect of /q/index.html would match this rule again, ignored",
                "_redirects line 7: a rule for /r is already defined, ignored",
                "_redirects line 8: '/t/:id/:id' captures :id twice (a second * or a repeated placeholder), which Cloudflare's rules engine drops, ignored");
    }

    @Test
    void headerRulesApplyInOrderAppendingDetachingAndFillingPlaceholders() {
        HeaderRules rules = HeaderRules.parse(String.join("\n",
                "X-Early: before any pattern", "/*", "  X-A: one", "  Cache-Control: no-store", "/docs/:page",
                "  X-A: two", "  X-Page: :page", "  ! Content-Type", "/docs/secret", "  ! X-A", "  bad line"));
        Map<String, String> h = new HashMap<>(Map.of("content-type", "text/html", "cache-control", "public"));
        rules.apply("h", "/docs/intro", h);
        assertThat(h).containsExactlyInAnyOrderEntriesOf(Map.of("x-a", "one, two", "x-page", "intro", "cache-control", "no-store"));
        Map<String, String> secret = new HashMap<>();
        rules.apply("h", "/docs/secret", secret);
        assertThat(secret).containsExactlyInAnyOrderEntriesOf(Map.of("x-page", "secret", "cache-control", "no-store"));
        assertThat(rules.warnings()).containsExactly("_headers line 1: a header before any URL pattern, ignored",
                "_headers line 11: expected 'Name: value' or '! Name', ignored");
    }

    @Test
    void headerRulesPastOneHundredAreIgnoredAndNamed() {
        String text = IntStream.rangeClosed(1, 101).mapToObj(i -> "/p" + i + "\n  X-N: " + i).collect(Collectors.joining("\n"));
        HeaderRules rules = HeaderRules.parse(text);
        Map<String, String> h = new HashMap<>();
        rules.apply("h", "/p101", h);
        assertThat(h).isEmpty();
        rules.apply("h", "/p100", h);
        assertThat(h).containsEntry("x-n", "100");
        assertThat(rules.warnings()).containsExactly("_headers line 201: more than 100 rules, ignored");
    }
}
