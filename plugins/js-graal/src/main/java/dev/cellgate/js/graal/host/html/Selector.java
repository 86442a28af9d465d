package dev.cellgate.js.graal.host.html;

import java.util.List;

/**
 * A parsed selector of the subset Cloudflare's HTMLRewriter accepts ({@link SelectorParser}) and its
 * matching against an element and the open elements above it ({@link OpenElements}): type and
 * universal selectors, {@code #id}, {@code .class}, attribute selectors with every operator and the
 * {@code i}/{@code s} flags, {@code :first-child}, {@code :nth-child()}, {@code :first-of-type},
 * {@code :nth-of-type()}, {@code :not()}, and the descendant and child combinators.
 */
final class Selector {
    static final int DESCENDANT = 0;
    static final int CHILD = 1;

    /** Any of these matches. */
    final List<Complex> alternatives;

    Selector(List<Complex> alternatives) {
        this.alternatives = alternatives;
    }

    /** Compounds left to right; {@code combinators[i]} joins compound i and i + 1. */
    record Complex(List<Compound> compounds, int[] combinators) {
    }

    /** A type (null for any) and conditions that must all hold; {@code never} for {@code |E} (no namespace: no HTML element). */
    record Compound(String tag, List<Condition> conditions, boolean never) {
    }

    sealed interface Condition permits Attr, Nth, Not {
    }

    static final int EXISTS = 0;
    static final int EQUALS = 1;
    static final int INCLUDES = 2;
    static final int DASH = 3;
    static final int PREFIX = 4;
    static final int SUFFIX = 5;
    static final int SUBSTRING = 6;

    /** {@code [name op value i]}; {@code .c} is {@code [class~=c]}, {@code #x} is {@code [id=x]}. */
    record Attr(String name, int op, String value, boolean ignoreCase) implements Condition {
    }

    /** {@code :nth-child(an+b)} ({@code ofType} false) or {@code :nth-of-type(an+b)}. */
    record Nth(int a, int b, boolean ofType) implements Condition {
        boolean has(int index) {
            if (a == 0) {
                return index == b;
            }
            int d = index - b;
            return d % a == 0 && d / a >= 0;
        }
    }

    record Not(Selector inner) implements Condition {
    }

    /** Whether the element at {@code depth} of {@code path} (0 = outermost) matches. */
    boolean matches(OpenElements.Info[] path, int depth) {
        for (Complex c : alternatives) {
            if (matchFrom(c, c.compounds().size() - 1, path, depth)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchFrom(Complex c, int ci, OpenElements.Info[] path, int depth) {
        if (!matchCompound(c.compounds().get(ci), path, depth)) {
            return false;
        }
        if (ci == 0) {
            return true;
        }
        if (c.combinators()[ci - 1] == CHILD) {
            return depth > 0 && matchFrom(c, ci - 1, path, depth - 1);
        }
        for (int d = depth - 1; d >= 0; d--) {
            if (matchFrom(c, ci - 1, path, d)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchCompound(Compound k, OpenElements.Info[] path, int depth) {
        OpenElements.Info e = path[depth];
        if (k.never()) {
            return false;
        }
        if (k.tag() != null && !k.tag().equals(e.name())) {
            return false;
        }
        for (Condition cond : k.conditions()) {
            boolean ok = switch (cond) {
                case Attr a -> matchAttr(a, e);
                case Nth n -> n.has(n.ofType() ? e.typeIndex() : e.index());
                case Not n -> !n.inner().matches(path, depth);
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean matchAttr(Attr a, OpenElements.Info e) {
        String v = e.attribute(a.name());
        if (v == null) {
            return false;
        }
        if (a.op() == EXISTS) {
            return true;
        }
        String want = a.value();
        if (a.ignoreCase()) {
            v = HtmlLexer.asciiLower(v);
            want = HtmlLexer.asciiLower(want);
        }
        return switch (a.op()) {
            case EQUALS -> v.equals(want);
            case INCLUDES -> !want.isEmpty() && want.chars().noneMatch(Selector::ws) && containsWord(v, want);
            case DASH -> v.equals(want) || v.startsWith(want + "-");
            case PREFIX -> v.startsWith(want); // lol-html: an empty prefix or suffix matches any value
            case SUFFIX -> v.endsWith(want);
            case SUBSTRING -> !want.isEmpty() && v.contains(want);
            default -> false;
        };
    }

    static boolean ws(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0c;
    }

    private static boolean containsWord(String list, String word) {
        int i = 0;
        int n = list.length();
        while (i < n) {
            while (i < n && ws(list.charAt(i))) {
                i++;
            }
            int s = i;
            while (i < n && !ws(list.charAt(i))) {
                i++;
            }
            if (i > s && list.regionMatches(s, word, 0, word.length()) && i - s == word.length()) {
                return true;
            }
        }
        return false;
    }
}
