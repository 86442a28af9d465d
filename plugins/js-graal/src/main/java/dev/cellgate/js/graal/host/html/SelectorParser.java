package dev.cellgate.js.graal.host.html;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the selectors HTMLRewriter's {@code on()} accepts, refusing the rest with the messages
 * workerd gives (lol-html parses with Servo's {@code selectors} crate over CSS tokens, which is why a
 * leading {@code .1a} or {@code #1} is an empty selector: they are a number and a non-identifier hash).
 * CSS escapes in identifiers and strings are decoded.
 */
final class SelectorParser {
    static final String EMPTY = "The selector is empty.";
    static final String UNEXPECTED_END = "Unexpected end of selector.";
    static final String DANGLING = "Dangling combinator in selector.";
    static final String UNSUPPORTED_PSEUDO = "Unsupported pseudo-class or pseudo-element in selector.";
    static final String NAMESPACE = "Selectors with explicit namespaces are not supported.";
    static final String UNEXPECTED_TOKEN = "Unexpected token in selector.";
    static final String ATTR_TOKEN = "Unexpected token in the attribute selector.";
    static final String MISSING_ATTR = "Missing attribute name in attribute selector.";
    static final String INVALID_CLASS = "Invalid or unescaped class name in selector.";

    private final String s;
    private int i;

    private SelectorParser(String s) {
        this.s = s;
    }

    /** The selector, or a {@link RewriterException} with workerd's message. */
    static Selector parse(String selector) {
        SelectorParser p = new SelectorParser(selector);
        Selector sel = p.list(false);
        return sel;
    }

    private RewriterException error(String message) {
        return new RewriterException(message);
    }

    private boolean end() {
        return i >= s.length();
    }

    private int peek() {
        return end() ? -1 : s.charAt(i);
    }

    private int peek(int k) {
        return i + k >= s.length() ? -1 : s.charAt(i + k);
    }

    private void skipWs() {
        while (!end() && Selector.ws(s.charAt(i))) {
            i++;
        }
    }

    /** A comma-separated list; inside {@code :not(...)} it ends at {@code )} (or the end). */
    private Selector list(boolean nested) {
        List<Selector.Complex> out = new ArrayList<>();
        while (true) {
            out.add(complex(nested));
            skipWs();
            if (end()) {
                break;
            }
            if (nested && peek() == ')') {
                break;
            }
            if (peek() == ',') {
                i++;
                continue;
            }
            throw error(UNEXPECTED_TOKEN);
        }
        return new Selector(out);
    }

    private Selector.Complex complex(boolean nested) {
        skipWs();
        if (!startsCompound()) {
            throw error(EMPTY);
        }
        List<Selector.Compound> compounds = new ArrayList<>();
        List<Integer> combinators = new ArrayList<>();
        compounds.add(compound());
        while (true) {
            int before = i;
            skipWs();
            boolean sawWs = i > before;
            int c = peek();
            if (c == -1 || c == ',' || (nested && c == ')')) {
                break;
            }
            if (c == '>') {
                i++;
                skipWs();
                if (!startsCompound()) {
                    throw error(DANGLING);
                }
                combinators.add(Selector.CHILD);
            } else if (c == '~' || c == '+') {
                throw error("Unsupported combinator `" + (char) c + "` in selector.");
            } else if (sawWs && startsCompound()) {
                combinators.add(Selector.DESCENDANT);
            } else {
                throw error(UNEXPECTED_TOKEN);
            }
            compounds.add(compound());
        }
        int[] comb = new int[combinators.size()];
        for (int k = 0; k < comb.length; k++) {
            comb[k] = combinators.get(k);
        }
        return new Selector.Complex(compounds, comb);
    }

    /** Whether a compound selector can start here (as a CSS token would allow). */
    private boolean startsCompound() {
        int c = peek();
        if (c == -1) {
            return false;
        }
        if (c == '*' || c == '[' || c == ':' || c == '|') {
            return true;
        }
        if (c == '.') {
            int n = peek(1);
            return !(n >= '0' && n <= '9'); // ".1" is a number token
        }
        if (c == '#') {
            return identStartsAt(i + 1);
        }
        return identStartsAt(i);
    }

    private Selector.Compound compound() {
        String tag = null;
        boolean never = false;
        List<Selector.Condition> conds = new ArrayList<>();
        int c = peek();
        if (c == '*' || c == '|' || identStartsAt(i)) {
            String first = null;
            if (c == '*') {
                i++;
            } else if (c != '|') {
                first = ident();
            }
            if (peek() == '|' && peek(1) != '=') {
                // a namespace prefix: only "*|" and "|" (no namespace) are accepted
                if (first != null) {
                    throw error(NAMESPACE);
                }
                never = c == '|'; // "|E": elements in no namespace, which HTML has none of
                i++;
                if (peek() == '*') {
                    i++;
                } else if (identStartsAt(i)) {
                    first = ident();
                } else {
                    throw error(peek() == -1 ? UNEXPECTED_END : UNEXPECTED_TOKEN);
                }
            }
            tag = first == null ? null : HtmlLexer.asciiLower(first);
        }
        while (true) {
            c = peek();
            if (c == '#') {
                i++;
                if (!identStartsAt(i)) {
                    throw error(peek() == -1 ? UNEXPECTED_END : UNEXPECTED_TOKEN);
                }
                conds.add(new Selector.Attr("id", Selector.EQUALS, ident(), false));
            } else if (c == '.') {
                i++;
                if (end()) {
                    throw error(UNEXPECTED_END);
                }
                if (!identStartsAt(i)) {
                    throw error(INVALID_CLASS);
                }
                conds.add(new Selector.Attr("class", Selector.INCLUDES, ident(), false));
            } else if (c == '[') {
                i++;
                conds.add(attribute());
            } else if (c == ':') {
                i++;
                conds.add(pseudo());
            } else {
                break;
            }
        }
        return new Selector.Compound(tag, conds, never);
    }

    private Selector.Condition attribute() {
        skipWs();
        if (end()) {
            throw error(UNEXPECTED_END);
        }
        if (!identStartsAt(i)) {
            if (peek() == '*' || peek() == '|') {
                throw error(NAMESPACE);
            }
            throw error(MISSING_ATTR);
        }
        String name = HtmlLexer.asciiLower(ident());
        if (peek() == '|' && peek(1) != '=') {
            throw error(NAMESPACE);
        }
        skipWs();
        if (end() || peek() == ']') {
            if (!end()) {
                i++;
            }
            return new Selector.Attr(name, Selector.EXISTS, "", false);
        }
        int op;
        int c = peek();
        if (c == '=') {
            op = Selector.EQUALS;
            i++;
        } else if (peek(1) == '=' && (c == '~' || c == '|' || c == '^' || c == '$' || c == '*')) {
            op = switch (c) {
                case '~' -> Selector.INCLUDES;
                case '|' -> Selector.DASH;
                case '^' -> Selector.PREFIX;
                case '$' -> Selector.SUFFIX;
                default -> Selector.SUBSTRING;
            };
            i += 2;
        } else {
            throw error(ATTR_TOKEN);
        }
        skipWs();
        if (end() || peek() == ']') {
            throw error(UNEXPECTED_END);
        }
        String value;
        if (peek() == '"' || peek() == '\'') {
            value = string();
        } else if (identStartsAt(i)) {
            value = ident();
        } else {
            throw error(ATTR_TOKEN);
        }
        skipWs();
        boolean ignoreCase = false;
        if (identStartsAt(i)) {
            String flag = ident();
            if (flag.equalsIgnoreCase("i")) {
                ignoreCase = true;
            } else if (!flag.equalsIgnoreCase("s")) {
                throw error(UNEXPECTED_TOKEN);
            }
            skipWs();
        }
        if (!end()) {
            if (peek() != ']') {
                throw error(UNEXPECTED_TOKEN);
            }
            i++;
        }
        return new Selector.Attr(name, op, value, ignoreCase);
    }

    private Selector.Condition pseudo() {
        if (peek() == ':' || !identStartsAt(i)) {
            if (end()) {
                throw error(UNEXPECTED_END);
            }
            throw error(UNSUPPORTED_PSEUDO);
        }
        String name = HtmlLexer.asciiLower(ident());
        boolean function = peek() == '(';
        if (!function) {
            return switch (name) {
                case "first-child" -> new Selector.Nth(0, 1, false);
                case "first-of-type" -> new Selector.Nth(0, 1, true);
                default -> throw error(UNSUPPORTED_PSEUDO);
            };
        }
        i++;
        Selector.Condition cond = switch (name) {
            case "nth-child" -> nth(false);
            case "nth-of-type" -> nth(true);
            case "not" -> {
                skipWs();
                if (end() || peek() == ')') {
                    throw error(EMPTY);
                }
                yield new Selector.Not(list(true));
            }
            default -> throw error(UNSUPPORTED_PSEUDO);
        };
        skipWs();
        if (!end()) {
            if (peek() != ')') {
                throw error(UNEXPECTED_TOKEN);
            }
            i++;
        }
        return cond;
    }

    /** An+B (css-syntax): odd, even, integers, n, -n, 2n+1, "2n - 1"... */
    private Selector.Nth nth(boolean ofType) {
        skipWs();
        if (end() || peek() == ')') {
            throw error(UNEXPECTED_END);
        }
        int a;
        int b = 0;
        if (identStartsAt(i) && !startsWithN()) {
            String w = HtmlLexer.asciiLower(ident());
            if (w.equals("odd")) {
                return new Selector.Nth(2, 1, ofType);
            }
            if (w.equals("even")) {
                return new Selector.Nth(2, 0, ofType);
            }
            throw error(UNEXPECTED_TOKEN);
        }
        int sign = 1;
        if (peek() == '+' || peek() == '-') {
            sign = peek() == '-' ? -1 : 1;
            i++;
        }
        int digitsStart = i;
        long num = 0;
        while (!end() && Character.isDigit(peek())) {
            num = Math.min(num * 10 + (peek() - '0'), Integer.MAX_VALUE);
            i++;
        }
        boolean hasDigits = i > digitsStart;
        if (peek() == 'n' || peek() == 'N') {
            i++;
            a = sign * (hasDigits ? (int) num : 1);
            skipWs();
            if (peek() == '+' || peek() == '-') {
                int bs = peek() == '-' ? -1 : 1;
                i++;
                skipWs();
                int ds = i;
                long bv = 0;
                while (!end() && Character.isDigit(peek())) {
                    bv = Math.min(bv * 10 + (peek() - '0'), Integer.MAX_VALUE);
                    i++;
                }
                if (i == ds) {
                    throw error(end() ? UNEXPECTED_END : UNEXPECTED_TOKEN);
                }
                b = bs * (int) bv;
            }
        } else {
            if (!hasDigits) {
                throw error(end() ? UNEXPECTED_END : UNEXPECTED_TOKEN);
            }
            a = 0;
            b = sign * (int) num;
        }
        skipWs();
        if (!end() && peek() != ')') {
            throw error(UNEXPECTED_TOKEN);
        }
        return new Selector.Nth(a, b, ofType);
    }

    private boolean startsWithN() {
        int c = peek();
        if (c == 'n' || c == 'N') {
            int n = peek(1);
            return n == -1 || n == ')' || n == '+' || n == '-' || Selector.ws(n);
        }
        if (c == '-' && (peek(1) == 'n' || peek(1) == 'N')) {
            int n = peek(2);
            return n == -1 || n == ')' || n == '+' || n == '-' || Selector.ws(n);
        }
        return false;
    }

    // ---- CSS identifiers and strings ----

    private boolean nameStart(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    private boolean nameChar(int c) {
        return nameStart(c) || (c >= '0' && c <= '9') || c == '-';
    }

    private boolean escapeAt(int k) {
        return k < s.length() && s.charAt(k) == '\\' && k + 1 < s.length() && s.charAt(k + 1) != '\n';
    }

    private boolean identStartsAt(int k) {
        if (k >= s.length()) {
            return false;
        }
        int c = s.charAt(k);
        if (nameStart(c) || escapeAt(k)) {
            return true;
        }
        if (c == '-' && k + 1 < s.length()) {
            int n = s.charAt(k + 1);
            return nameStart(n) || n == '-' || escapeAt(k + 1);
        }
        return false;
    }

    private String ident() {
        StringBuilder b = new StringBuilder();
        while (!end()) {
            int c = peek();
            if (escapeAt(i)) {
                i++;
                escape(b);
            } else if (nameChar(c)) {
                b.append((char) c);
                i++;
            } else {
                break;
            }
        }
        return b.toString();
    }

    private void escape(StringBuilder b) {
        int start = i;
        int v = 0;
        while (i < s.length() && i - start < 6 && Character.digit(s.charAt(i), 16) >= 0) {
            v = v * 16 + Character.digit(s.charAt(i), 16);
            i++;
        }
        if (i > start) {
            if (i < s.length() && Selector.ws(s.charAt(i))) {
                i++;
            }
            b.appendCodePoint(v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) ? 0xFFFD : v);
        } else if (i < s.length()) {
            b.append(s.charAt(i++));
        }
    }

    private String string() {
        int quote = s.charAt(i++);
        StringBuilder b = new StringBuilder();
        while (!end()) {
            int c = peek();
            if (c == quote) {
                i++;
                return b.toString();
            }
            if (c == '\\') {
                i++;
                if (end()) {
                    break;
                }
                if (peek() == '\n') {
                    i++;
                    continue;
                }
                escape(b);
                continue;
            }
            b.append((char) c);
            i++;
        }
        return b.toString();
    }
}
