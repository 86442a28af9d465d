package dev.cellgate.deploy.push;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.ignore.FastIgnoreRule;

/**
 * One line of a {@code .assetsignore} read the way Wrangler's matcher, the npm package
 * {@code ignore@5.3.1}, reads it, with the glob itself left to JGit's {@link FastIgnoreRule}.
 * Where {@code ignore@5} and git differ, this follows {@code ignore@5}, because that is what decides
 * which files a Wrangler deploy uploads: matching is case-insensitive, trailing whitespace is
 * JavaScript's {@code \s} (so the {@code "\r"} a CRLF line keeps after Wrangler splits on
 * {@code "\n"} is dropped), a line ending in a lone backslash is skipped, {@code !#x} negates the
 * file {@code #x} (git reads it as a comment), a line left empty after its {@code !} or its
 * trailing spaces matches every path, {@code [!a]} and {@code [^a]} are sets holding {@code !} or
 * {@code ^} (not negations), {@code dir/**}{@code /} matches {@code dir} itself, and whether a
 * pattern is anchored to the root is decided before the trailing whitespace goes (so
 * {@code "secret/\r"} names only the root's {@code secret}), and a line with an escaped
 * {@code \?} matches nothing.
 */
record IgnoreLine(boolean negative, List<FastIgnoreRule> globs) {
    /** JavaScript's {@code \s}, wider than Java's: no-break spaces and the BOM count. */
    private static final String JS_SPACE = "[\\t\\n\\u000B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]";
    private static final Pattern BLANK = Pattern.compile(JS_SPACE + "+");
    private static final Pattern LONE_TRAILING_BACKSLASH = Pattern.compile("(?:[^\\\\]|^)\\\\$");
    private static final Pattern TRAILING_SPACE = Pattern.compile("\\\\?" + JS_SPACE + "+$");
    private static final Pattern ESCAPED_SPACE = Pattern.compile("\\\\" + JS_SPACE);

    /** The rule a line holds, or empty for one that holds none (blank, a comment, a lone trailing backslash, one that matches nothing). */
    static Optional<IgnoreLine> parse(String line) {
        if (line.isEmpty() || BLANK.matcher(line).matches() || LONE_TRAILING_BACKSLASH.matcher(line).find()
                || line.startsWith("#")) {
            return Optional.empty();
        }
        boolean negative = line.startsWith("!");
        String body = negative ? line.substring(1) : line;
        if (body.startsWith("\\!") || body.startsWith("\\#")) {
            body = body.substring(1);
        }
        if (body.startsWith("\uFEFF")) {
            body = body.substring(1);
        }
        // ignore@5 asks "a slash before the end?" of the line as written, trailing whitespace included
        boolean anchored = body.indexOf('/') >= 0 && body.indexOf('/') < body.length() - 1;
        Matcher trailing = TRAILING_SPACE.matcher(body);
        if (trailing.find()) {
            body = body.substring(0, trailing.start()) + (trailing.group().startsWith("\\") ? " " : "");
        }
        body = ESCAPED_SPACE.matcher(body).replaceAll(" ").toLowerCase(Locale.ROOT);
        if (body.isEmpty()) {
            return Optional.of(new IgnoreLine(negative, List.of()));
        }
        if (hasEscapedQuestionMark(body)) {
            return Optional.empty(); // ignore@5 turns "\\?" into a regex no file name can match
        }
        String glob = literalSetMarks(body);
        List<FastIgnoreRule> globs = new ArrayList<>();
        globs.add(new FastIgnoreRule(asGitGlob(glob, anchored)));
        if (glob.endsWith("/**/") && glob.length() > 4) {
            // ignore@5's "dir/**/" names dir itself as well as every directory under it
            globs.add(new FastIgnoreRule(asGitGlob(glob.substring(0, glob.length() - 3), true)));
        }
        return Optional.of(new IgnoreLine(negative, List.copyOf(globs)));
    }

    /** TEST ONLY (AssetsIgnore's broken variant): the line as git itself would read it. */
    static Optional<IgnoreLine> asPlainGit(String line) {
        FastIgnoreRule rule = new FastIgnoreRule(line);
        return rule.isEmpty() ? Optional.empty() : Optional.of(new IgnoreLine(rule.getNegation(), List.of(rule)));
    }

    /** The glob as JGit must be told it to match what ignore@5 matches. */
    private static String asGitGlob(String glob, boolean anchored) {
        int slash = glob.indexOf('/');
        if (anchored && (slash < 0 || slash == glob.length() - 1) && !glob.startsWith("**/")) {
            glob = "/" + glob;
        }
        int end = glob.length();
        while (end > 0 && glob.charAt(end - 1) == ' ') {
            end--;
        }
        // JGit drops unescaped trailing spaces; ignore@5 has kept only the ones the line escaped
        glob = glob.substring(0, end) + "\\ ".repeat(glob.length() - end);
        // a leading '!' or '#' left in the glob is a literal character, which JGit wants escaped
        return glob.startsWith("!") || glob.startsWith("#") ? "\\" + glob : glob;
    }

    private static boolean hasEscapedQuestionMark(String glob) {
        for (int i = 0; i + 1 < glob.length(); i++) {
            if (glob.charAt(i) == '\\' && glob.charAt(++i) == '?') {
                return true;
            }
        }
        return false;
    }

    /** {@code [!ab]} and {@code [^ab]} as sets of literal characters: the mark is escaped (JGit reads {@code [b^]} as no set). */
    private static String literalSetMarks(String glob) {
        StringBuilder b = new StringBuilder(glob.length());
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            b.append(c);
            if (c == '\\' && i + 1 < glob.length()) {
                b.append(glob.charAt(++i));
            } else if (c == '[' && i + 2 < glob.length() && (glob.charAt(i + 1) == '!' || glob.charAt(i + 1) == '^')) {
                if (glob.indexOf(']', i + 2) > i + 2) {
                    b.append('\\').append(glob.charAt(++i));
                }
            }
        }
        return b.toString();
    }

    /** Whether this line's pattern matches a lower-cased relative path ({@code isDirectory} for a parent directory). */
    boolean matches(String lowerCasedPath, boolean isDirectory) {
        if (globs.isEmpty()) {
            return true;
        }
        for (FastIgnoreRule g : globs) {
            if (g.isMatch(lowerCasedPath, isDirectory, true)) {
                return true;
            }
        }
        return false;
    }
}
