package dev.cellgate.js.graal.host.html;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a streaming rewriter can know of the HTML tree builder without building a tree, as lol-html
 * (Cloudflare's rewriter) simulates it: which text mode the tokenizer switches to after a start tag
 * (RCDATA for {@code textarea}/{@code title}, raw text for {@code style}/{@code script}/...), which
 * namespace an element is in (SVG and MathML foreign content, its integration points and the tags
 * that break out of it), and the few contexts ({@code <select>}, after {@code <frameset>}) where a
 * text-mode tag is ambiguous and rewriting stops with an error rather than guess (lol-html's strict
 * mode, which workerd uses).
 */
final class TreeSimulator {
    static final int HTML = 0;
    static final int SVG = 1;
    static final int MATHML = 2;

    /** Text modes a start tag can switch the tokenizer to. */
    static final int TEXT_NONE = 0;
    static final int TEXT_RCDATA = 1;
    static final int TEXT_RAWTEXT = 2;
    static final int TEXT_SCRIPT = 3;
    static final int TEXT_PLAINTEXT = 4;

    private static final Set<String> FOREIGN_EXIT = Set.of("b", "big", "blockquote", "body", "br", "center", "code", "dd", "div",
            "dl", "dt", "em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta",
            "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var");
    private static final Set<String> MATHML_TEXT_POINTS = Set.of("mi", "mo", "mn", "ms", "mtext");
    private static final Set<String> SVG_HTML_POINTS = Set.of("desc", "title", "foreignobject");
    private static final Set<String> TEXT_MODE_TAGS = Set.of("textarea", "title", "plaintext", "script", "style", "iframe", "xmp",
            "noembed", "noframes", "noscript");

    private final List<Integer> nsStack = new ArrayList<>(List.of(HTML));
    private int ns = HTML;
    /** Whether the last start tag needed its whole lexeme to be simulated (integration points, font, annotation-xml in foreign content). */
    private boolean neededLexeme;

    // the ambiguity guard
    private static final int DEFAULT = 0;
    private static final int IN_SELECT = 1;
    private static final int IN_TEMPLATE_IN_SELECT = 2;
    private static final int IN_OR_AFTER_FRAMESET = 3;
    private int guard = DEFAULT;
    private int templateDepth;

    boolean neededLexeme() {
        return neededLexeme;
    }

    int namespace() {
        return ns;
    }

    boolean cdataAllowed() {
        return ns != HTML;
    }

    /** Start tag {@code name} (lower case); the text mode to switch to, or TEXT_NONE. Throws on an ambiguous text-mode tag. */
    int startTag(String name, boolean selfClosing, List<String[]> attributes) {
        trackStart(name);
        neededLexeme = ns != HTML && !name.equals("svg") && !name.equals("math") && !FOREIGN_EXIT.contains(name)
                && (name.equals("font") || (ns == SVG && SVG_HTML_POINTS.contains(name)) || (ns == MATHML && MATHML_TEXT_POINTS.contains(name))
                || (ns == MATHML && name.equals("annotation-xml")));
        if (name.equals("svg")) {
            enter(SVG);
        } else if (name.equals("math")) {
            enter(MATHML);
        } else if (ns == HTML) {
            return textMode(name);
        } else if (FOREIGN_EXIT.contains(name)) {
            leave();
        } else if (name.equals("font")) {
            for (String[] a : attributes) {
                String n = a[0];
                if (n.equals("color") || n.equals("size") || n.equals("face")) {
                    leave();
                    break;
                }
            }
        } else if ((ns == SVG && SVG_HTML_POINTS.contains(name)) || (ns == MATHML && MATHML_TEXT_POINTS.contains(name))) {
            if (!selfClosing) {
                enter(HTML);
            }
        } else if (ns == MATHML && name.equals("annotation-xml") && !selfClosing) {
            for (String[] a : attributes) {
                if (a[0].equals("encoding") && (a[1].equalsIgnoreCase("text/html") || a[1].equalsIgnoreCase("application/xhtml+xml"))) {
                    enter(HTML);
                    break;
                }
            }
        }
        return TEXT_NONE;
    }

    void endTag(String name) {
        trackEnd(name);
        if (ns == SVG && name.equals("svg") || ns == MATHML && name.equals("math")) {
            leave();
        } else if (ns == HTML && nsStack.size() >= 2) {
            int prev = nsStack.get(nsStack.size() - 2);
            if (prev == MATHML && (MATHML_TEXT_POINTS.contains(name) || name.equals("annotation-xml"))
                    || prev == SVG && SVG_HTML_POINTS.contains(name)) {
                leave();
            }
        }
    }

    private static int textMode(String name) {
        return switch (name) {
            case "textarea", "title" -> TEXT_RCDATA;
            case "plaintext" -> TEXT_PLAINTEXT;
            case "script" -> TEXT_SCRIPT;
            case "style", "iframe", "xmp", "noembed", "noframes", "noscript" -> TEXT_RAWTEXT;
            default -> TEXT_NONE;
        };
    }

    private void enter(int n) {
        nsStack.add(n);
        ns = n;
    }

    private void leave() {
        if (nsStack.size() > 1) {
            nsStack.remove(nsStack.size() - 1);
        }
        ns = nsStack.get(nsStack.size() - 1);
    }

    private void trackStart(String name) {
        switch (guard) {
            case DEFAULT -> {
                if (name.equals("select")) {
                    guard = IN_SELECT;
                } else if (name.equals("frameset")) {
                    guard = IN_OR_AFTER_FRAMESET;
                }
            }
            case IN_SELECT -> {
                if (name.equals("select") || name.equals("textarea") || name.equals("input") || name.equals("keygen")) {
                    guard = DEFAULT;
                } else if (name.equals("template")) {
                    guard = IN_TEMPLATE_IN_SELECT;
                    templateDepth = 1;
                } else if (!name.equals("script")) {
                    assertNotAmbiguous(name);
                }
            }
            case IN_TEMPLATE_IN_SELECT -> {
                if (name.equals("template")) {
                    templateDepth++;
                } else {
                    assertNotAmbiguous(name);
                }
            }
            default -> {
                if (!name.equals("noframes")) {
                    assertNotAmbiguous(name);
                }
            }
        }
    }

    private void trackEnd(String name) {
        if (guard == IN_SELECT && name.equals("select")) {
            guard = DEFAULT;
        } else if (guard == IN_TEMPLATE_IN_SELECT && name.equals("template")) {
            if (--templateDepth == 0) {
                guard = IN_SELECT;
            }
        }
    }

    private static void assertNotAmbiguous(String name) {
        if (TEXT_MODE_TAGS.contains(name)) {
            throw new RewriterException("The parser has encountered a text content tag (`<" + name + ">`) in the context where it is "
                    + "ambiguous whether this tag should be ignored or not. And, thus, is is unclear is consequent content should be "
                    + "parsed as raw text or HTML markup.\n\nThis error occurs due to the limited capabilities of the streaming parsing. "
                    + "However, almost all of the cases of this error are caused by a non-conforming markup (e.g. a `<script>` element "
                    + "in `<select>` element).");
        }
    }
}
