package dev.cellgate.js.graal.host.html;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * One {@code HTMLRewriter.transform()} in progress ({@code html-rewriter.js} drives it): input bytes
 * go in, lexemes come out of {@link HtmlLexer}, selectors are matched against {@link OpenElements},
 * and every token a JavaScript handler must see becomes an event; {@link #next()} stops at each one
 * so that a handler may be asynchronous (the stream pauses until its promise settles), and the
 * token's mutations are applied when the script asks for the next event. Bytes nobody changed are
 * copied from the input; text that text handlers saw is written back from its decoded form, as
 * lol-html does.
 *
 * <p>Runs only inside the instance's turns (the script's calls); no locking.
 */
public final class HtmlRewriterHost {
    public static final int NEED_INPUT = 0;
    public static final int DONE = -1;
    public static final int ERROR = -2;
    public static final int ELEMENT = 1;
    public static final int END_TAG = 2;
    public static final int TEXT = 3;
    public static final int COMMENT = 4;
    public static final int DOCTYPE = 5;
    public static final int DOC_END = 6;

    // handler kinds of a registration
    static final int H_ELEMENT = 1;
    static final int H_COMMENTS = 2;
    static final int H_TEXT = 4;
    static final int H_DOCTYPE = 8;
    static final int H_END = 16;

    // where content goes
    static final int BEFORE = 0;
    static final int AFTER = 1;
    static final int PREPEND = 2;
    static final int APPEND = 3;
    static final int REPLACE = 4;
    static final int INNER = 5;

    private static final String[] NAMESPACES = {"http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg",
        "http://www.w3.org/1998/Math/MathML"};
    private static final int[] NONE = {};

    private final List<Selector> selectors = new ArrayList<>(); // null for onDocument registrations
    private final List<Integer> kinds = new ArrayList<>();
    private int[] activeText = new int[4];
    private int[] activeComments = new int[4];

    private final HtmlLexer lexer = new HtmlLexer();
    private final OpenElements open = new OpenElements();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ArrayDeque<Object> work = new ArrayDeque<>();
    private final List<byte[]> endAppends = new ArrayList<>();
    private Event current;
    private Utf8Stream textNode; // the decoder of a text node handlers are seeing
    private int removing; // open elements whose content is being removed
    private boolean finished;
    private String error;
    private boolean lastTagWasEnd;

    /** The message of a selector workerd refuses, or null when {@code on(selector)} may take it. */
    public static String selectorError(String selector) {
        try {
            SelectorParser.parse(selector);
            return null;
        } catch (RewriterException e) {
            return e.getMessage();
        }
    }

    @HostAccess.Export
    public void addSelector(String selector, int handlerKinds) {
        selectors.add(SelectorParser.parse(selector));
        register(handlerKinds);
    }

    @HostAccess.Export
    public void addDocument(int handlerKinds) {
        selectors.add(null);
        register(handlerKinds);
    }

    private void register(int handlerKinds) {
        kinds.add(handlerKinds);
        if (kinds.size() > activeText.length) {
            activeText = Arrays.copyOf(activeText, kinds.size() * 2);
            activeComments = Arrays.copyOf(activeComments, kinds.size() * 2);
        }
    }

    @HostAccess.Export
    public void write(Value buffer, int offset, int length) {
        byte[] b = new byte[length];
        if (length > 0) {
            buffer.readBuffer(offset, b, 0, length);
        }
        lexer.write(b, 0, length);
    }

    /** The same, from Java (tests, benchmarks). */
    public void write(byte[] b) {
        lexer.write(b, 0, b.length);
    }

    @HostAccess.Export
    public void end() {
        lexer.end();
    }

    /** Output written since the last call, or null. */
    @HostAccess.Export
    public ByteBuffer takeOutput() {
        if (out.size() == 0) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(out.toByteArray());
        out.reset();
        return b;
    }

    public byte[] takeBytes() {
        byte[] b = out.toByteArray();
        out.reset();
        return b;
    }

    @HostAccess.Export
    public String error() {
        return error;
    }

    /**
     * Finishes the event the script handled and advances: the next event's kind, NEED_INPUT (write
     * more, or end), DONE, or ERROR ({@link #error()}).
     */
    @HostAccess.Export
    public int next() {
        try {
            if (current != null) {
                Event e = current;
                current = null;
                e.done.run();
            }
            while (true) {
                Object w = work.poll();
                if (w instanceof Event e) {
                    if (e.regs.length == 0 && e.kind != END_TAG) {
                        e.done.run();
                        continue;
                    }
                    current = e;
                    return e.kind;
                }
                if (w instanceof Runnable r) {
                    r.run();
                    continue;
                }
                if (finished) {
                    return DONE;
                }
                int lx = lexer.next();
                if (lx == HtmlLexer.NEED_INPUT) {
                    return NEED_INPUT;
                }
                process(lx);
            }
        } catch (RewriterException e) {
            error = e.getMessage();
            return ERROR;
        }
    }

    // ---- the current event, for the script ----

    @HostAccess.Export
    public int handlerCount() {
        return current.regs.length;
    }

    @HostAccess.Export
    public int handler(int i) {
        return current.regs[i];
    }

    private StartTag tag() {
        return (StartTag) current.token;
    }

    @HostAccess.Export
    public String tagName() {
        StartTag t = tag();
        return t.renamed == null ? t.name : HtmlLexer.asciiLower(t.renamed);
    }

    @HostAccess.Export
    public void setTagName(String name) {
        StartTag t = tag();
        t.renamed = name;
        if (t.entry != null) {
            t.entry.renamedTo = name;
        }
    }

    @HostAccess.Export
    public String namespaceURI() {
        return NAMESPACES[tag().ns];
    }

    @HostAccess.Export
    public int attributeCount() {
        return tag().attrs.size();
    }

    @HostAccess.Export
    public String attributeName(int i) {
        return tag().attrs.get(i).lower;
    }

    @HostAccess.Export
    public String attributeValue(int i) {
        return tag().attrs.get(i).value;
    }

    private Attr find(String name) {
        String n = HtmlLexer.asciiLower(name);
        for (Attr a : tag().attrs) {
            if (a.lower.equals(n)) {
                return a;
            }
        }
        return null;
    }

    @HostAccess.Export
    public String getAttribute(String name) {
        Attr a = find(name);
        return a == null ? null : a.value;
    }

    @HostAccess.Export
    public boolean hasAttribute(String name) {
        return find(name) != null;
    }

    @HostAccess.Export
    public void setAttribute(String name, String value) {
        Attr a = find(name);
        StartTag t = tag();
        if (a == null) {
            String lower = HtmlLexer.asciiLower(name);
            t.attrs.add(new Attr(lower, lower, value, null));
        } else {
            a.value = value;
            a.raw = null;
        }
        t.modified = true;
    }

    @HostAccess.Export
    public void removeAttribute(String name) {
        Attr a = find(name);
        if (a != null) {
            tag().attrs.remove(a);
            tag().modified = true;
        }
    }

    @HostAccess.Export
    public boolean removed() {
        return switch (current.token) {
            case StartTag t -> t.m.removed;
            case TextChunk t -> t.m.removed;
            case CommentToken c -> c.m.removed;
            default -> false;
        };
    }

    /** Registers the element's end-tag handler: the id the END_TAG event will carry, or 0 when it has no end tag. */
    @HostAccess.Export
    public int onEndTag() {
        OpenElements.Entry e = tag().entry;
        if (e == null) {
            return 0;
        }
        e.endHandler = true;
        return e.serial;
    }

    /** Content at {@code where} (BEFORE, AFTER, PREPEND, APPEND, REPLACE, INNER) of the current token. */
    @HostAccess.Export
    public void content(int where, String content, boolean html) {
        byte[] bytes = html ? content.getBytes(StandardCharsets.UTF_8) : escapeText(content);
        Object token = current.token;
        if (token instanceof StartTag t) {
            OpenElements.Entry e = t.entry;
            switch (where) {
                case BEFORE -> t.m.before(bytes);
                case AFTER -> {
                    if (e != null) {
                        e.endMutations().after(bytes);
                    } else {
                        t.m.after(bytes);
                    }
                }
                case PREPEND -> {
                    if (e != null) {
                        t.m.after(bytes);
                    }
                }
                case APPEND -> {
                    if (e != null) {
                        e.endMutations().before(bytes);
                    }
                }
                case INNER -> {
                    if (e != null) {
                        t.m.setAfter(bytes);
                        e.endMutations().clearBefore();
                        e.removesContent = true;
                    }
                }
                default -> {
                    t.m.replace(bytes);
                    if (e != null) {
                        e.removesContent = true;
                        e.endMutations().remove();
                    }
                }
            }
            return;
        }
        Mutations m = switch (token) {
            case EndTag t -> t.m;
            case TextChunk t -> t.m;
            case CommentToken c -> c.m;
            case DocEnd d -> null;
            default -> throw new IllegalStateException("no content on " + token);
        };
        if (m == null) {
            endAppends.add(bytes);
            return;
        }
        switch (where) {
            case BEFORE -> m.before(bytes);
            case AFTER -> m.after(bytes);
            default -> m.replace(bytes);
        }
    }

    /** {@code remove()} of the current token (an element: with its content). */
    @HostAccess.Export
    public void remove() {
        switch (current.token) {
            case StartTag t -> {
                t.m.remove();
                if (t.entry != null) {
                    t.entry.removesContent = true;
                    t.entry.endMutations().remove();
                }
            }
            case EndTag t -> t.m.remove();
            case TextChunk t -> t.m.remove();
            case CommentToken c -> c.m.remove();
            default -> throw new IllegalStateException("remove on " + current.token);
        }
    }

    @HostAccess.Export
    public void removeAndKeepContent() {
        StartTag t = tag();
        t.m.remove();
        if (t.entry != null) {
            t.entry.endMutations().remove();
        }
    }

    @HostAccess.Export
    public int endTagId() {
        return current.entry.serial;
    }

    @HostAccess.Export
    public String endTagName() {
        EndTag t = (EndTag) current.token;
        return t.renamed == null ? t.name : HtmlLexer.asciiLower(t.renamed);
    }

    @HostAccess.Export
    public void setEndTagName(String name) {
        ((EndTag) current.token).renamed = name;
    }

    @HostAccess.Export
    public String text() {
        return ((TextChunk) current.token).text;
    }

    @HostAccess.Export
    public boolean lastInTextNode() {
        return ((TextChunk) current.token).last;
    }

    @HostAccess.Export
    public String commentText() {
        return ((CommentToken) current.token).text;
    }

    @HostAccess.Export
    public void setCommentText(String text) {
        CommentToken c = (CommentToken) current.token;
        c.text = text;
        c.modified = true;
    }

    @HostAccess.Export
    public String doctypeName() {
        return ((DoctypeToken) current.token).name;
    }

    @HostAccess.Export
    public String doctypePublicId() {
        return ((DoctypeToken) current.token).publicId;
    }

    @HostAccess.Export
    public String doctypeSystemId() {
        return ((DoctypeToken) current.token).systemId;
    }

    // ---- lexemes ----

    private void process(int lx) {
        switch (lx) {
            case HtmlLexer.TEXT -> textLexeme();
            case HtmlLexer.EOF -> {
                flushText();
                // workerd calls the end handlers last registered first
                int[] ends = documentRegs(H_END);
                for (int i = 0, j = ends.length - 1; i < j; i++, j--) {
                    int x = ends[i];
                    ends[i] = ends[j];
                    ends[j] = x;
                }
                work.add(new Event(DOC_END, ends, new DocEnd(), null, this::finish));
            }
            default -> {
                Object token = snapshot(lx);
                if (flushText()) {
                    work.add((Runnable) () -> handle(token));
                } else {
                    handle(token);
                }
            }
        }
    }

    private void textLexeme() {
        byte[] buf = lexer.buffer();
        if (!textCaptured()) {
            emit(buf, lexer.rawStart, lexer.rawEnd - lexer.rawStart);
            return;
        }
        if (textNode == null) {
            textNode = new Utf8Stream();
        }
        String s = textNode.decode(buf, lexer.rawStart, lexer.rawEnd);
        if (!s.isEmpty()) {
            TextChunk t = new TextChunk(s, false);
            work.add(new Event(TEXT, contentRegs(activeText, H_TEXT), t, null, () -> emitText(t)));
        }
    }

    /** The end of a text node handlers were seeing: its last (usually empty) chunk. */
    private boolean flushText() {
        if (textNode == null) {
            return false;
        }
        TextChunk t = new TextChunk(textNode.finish(), true);
        textNode = null;
        work.add(new Event(TEXT, contentRegs(activeText, H_TEXT), t, null, () -> emitText(t)));
        return true;
    }

    /** Whether lol-html would be running its tag scanner (nothing captures text, comments or doctypes now). */
    private boolean scanningForTagsOnly() {
        for (int i = 0; i < kinds.size(); i++) {
            int k = kinds.get(i);
            if (selectors.get(i) == null ? (k & (H_TEXT | H_COMMENTS | H_DOCTYPE)) != 0 : activeText[i] > 0 || activeComments[i] > 0) {
                return false;
            }
        }
        return true;
    }

    private boolean textCaptured() {
        for (int i = 0; i < kinds.size(); i++) {
            if ((kinds.get(i) & H_TEXT) != 0 && (selectors.get(i) == null || activeText[i] > 0)) {
                return true;
            }
        }
        return false;
    }

    /** Element registrations active for content (in registration order), then document ones. */
    private int[] contentRegs(int[] active, int kind) {
        return regs(active, kind);
    }

    private int[] documentRegs(int kind) {
        return regs(null, kind);
    }

    /** Registrations with handlers of {@code kind}: element ones active in {@code active} (none when null) first, then document ones. */
    private int[] regs(int[] active, int kind) {
        int[] r = new int[kinds.size()];
        int n = 0;
        for (int pass = active == null ? 1 : 0; pass < 2; pass++) {
            for (int i = 0; i < kinds.size(); i++) {
                boolean document = selectors.get(i) == null;
                if ((kinds.get(i) & kind) != 0 && (pass == 0 ? !document && active[i] > 0 : document)) {
                    r[n++] = i;
                }
            }
        }
        return n == 0 ? NONE : Arrays.copyOf(r, n);
    }

    private Object snapshot(int lx) {
        byte[] buf = lexer.buffer();
        byte[] raw = Arrays.copyOfRange(buf, lexer.rawStart, lexer.rawEnd);
        return switch (lx) {
            case HtmlLexer.START_TAG -> {
                List<Attr> attrs = new ArrayList<>(lexer.attrCount);
                for (int i = 0; i < lexer.attrCount; i++) {
                    int o = i * 6;
                    int[] a = lexer.attrs;
                    String rawName = lexer.string(a[o], a[o + 1]);
                    String value = a[o + 2] < 0 ? "" : lexer.string(a[o + 2], a[o + 3]);
                    attrs.add(new Attr(rawName, HtmlLexer.asciiLower(rawName), value, Arrays.copyOfRange(buf, a[o + 4], a[o + 5])));
                }
                StartTag t = new StartTag(raw, lexer.string(lexer.nameStart, lexer.nameEnd), lexer.lowerName(), attrs, lexer.selfClosing,
                        lexer.namespace);
                t.neededLexeme = lexer.neededLexeme;
                yield t;
            }
            case HtmlLexer.END_TAG -> new EndTag(raw, lexer.lowerName());
            case HtmlLexer.COMMENT -> new CommentToken(raw, lexer.string(lexer.commentStart, lexer.commentEnd));
            case HtmlLexer.DOCTYPE -> new DoctypeToken(raw,
                    lexer.doctypeNameStart < 0 ? null : lexer.lower(lexer.doctypeNameStart, lexer.doctypeNameEnd),
                    lexer.publicStart < 0 ? null : lexer.string(lexer.publicStart, lexer.publicEnd),
                    lexer.systemStart < 0 ? null : lexer.string(lexer.systemStart, lexer.systemEnd));
            default -> raw;
        };
    }

    private void handle(Object token) {
        switch (token) {
            case StartTag t -> startTag(t);
            case EndTag t -> endTag(t);
            case CommentToken c -> {
                int[] regs = contentRegs(activeComments, H_COMMENTS);
                if (regs.length == 0) {
                    emit(c.raw, 0, c.raw.length);
                } else {
                    work.add(new Event(COMMENT, regs, c, null, () -> emitComment(c)));
                }
            }
            case DoctypeToken d -> {
                int[] regs = documentRegs(H_DOCTYPE);
                if (regs.length == 0) {
                    emit(d.raw, 0, d.raw.length);
                } else {
                    work.add(new Event(DOCTYPE, regs, d, null, () -> emit(d.raw, 0, d.raw.length)));
                }
            }
            case byte[] raw -> emit(raw, 0, raw.length);
            default -> throw new IllegalStateException("token " + token);
        }
    }

    private void startTag(StartTag t) {
        boolean afterEnd = lastTagWasEnd;
        lastTagWasEnd = false;
        if (t.neededLexeme && afterEnd && scanningForTagsOnly()) {
            // lol-html: its tag scanner hands such a tag to the lexer for the tree simulation only, and
            // the selector matcher never sees it (workerd shows the same)
            emit(t.raw, 0, t.raw.length);
            return;
        }
        OpenElements.Info info = open.child(t.name, t.pairs());
        OpenElements.Info[] path = open.pathWith(info);
        int depth = open.depth();
        int[] matched = NONE;
        int n = 0;
        for (int i = 0; i < selectors.size(); i++) {
            Selector s = selectors.get(i);
            if (s != null && s.matches(path, depth)) {
                if (n == matched.length) {
                    matched = Arrays.copyOf(matched, Math.max(4, n * 2));
                }
                matched[n++] = i;
            }
        }
        boolean pushed = t.ns == TreeSimulator.HTML ? !OpenElements.VOID.contains(t.name) : !t.selfClosing;
        if (pushed) {
            t.entry = open.push(info);
            int c = 0;
            for (int k = 0; k < n; k++) {
                if ((kinds.get(matched[k]) & (H_TEXT | H_COMMENTS)) != 0) {
                    c++;
                }
            }
            int[] content = new int[c];
            c = 0;
            for (int k = 0; k < n; k++) {
                int r = matched[k];
                int kind = kinds.get(r);
                if ((kind & (H_TEXT | H_COMMENTS)) != 0) {
                    content[c++] = r;
                    if ((kind & H_TEXT) != 0) {
                        activeText[r]++;
                    }
                    if ((kind & H_COMMENTS) != 0) {
                        activeComments[r]++;
                    }
                }
            }
            t.entry.contentRegs = content;
        }
        int e = 0;
        for (int k = 0; k < n; k++) {
            if ((kinds.get(matched[k]) & H_ELEMENT) != 0) {
                e++;
            }
        }
        if (e == 0) {
            finishStartTag(t);
            return;
        }
        int[] regs = new int[e];
        e = 0;
        for (int k = 0; k < n; k++) {
            if ((kinds.get(matched[k]) & H_ELEMENT) != 0) {
                regs[e++] = matched[k];
            }
        }
        work.add(new Event(ELEMENT, regs, t, null, () -> finishStartTag(t)));
    }

    private void finishStartTag(StartTag t) {
        if (removing == 0) {
            t.m.writeBefore(out);
            if (t.m.removed) {
                t.m.writeToken(out, null, 0, 0);
            } else if (t.modified || t.renamed != null) {
                out.writeBytes(t.serialize());
            } else {
                out.write(t.raw, 0, t.raw.length);
            }
            t.m.writeAfter(out);
        }
        if (t.entry != null && t.entry.removesContent) {
            removing++;
        }
    }

    private void endTag(EndTag t) {
        lastTagWasEnd = true;
        List<OpenElements.Entry> popped = open.popUpTo(t.name);
        if (popped.isEmpty()) {
            emit(t.raw, 0, t.raw.length);
            return;
        }
        for (OpenElements.Entry e : popped) {
            if (e.removesContent) {
                removing--;
            }
            for (int r : e.contentRegs) {
                int kind = kinds.get(r);
                if ((kind & H_TEXT) != 0) {
                    activeText[r]--;
                }
                if ((kind & H_COMMENTS) != 0) {
                    activeComments[r]--;
                }
            }
        }
        // innermost first, each element's end-tag mutations replace the token's, then its handler runs (as lol-html)
        for (OpenElements.Entry e : popped) {
            if (e.endMutations != null || e.renamedTo != null) {
                work.add((Runnable) () -> {
                    if (e.endMutations != null) {
                        t.m = e.endMutations.copy();
                    }
                    if (e.renamedTo != null) {
                        t.renamed = e.renamedTo;
                    }
                });
            }
            if (e.endHandler) {
                work.add(new Event(END_TAG, NONE, t, e, () -> { }));
            }
        }
        work.add((Runnable) () -> emitEndTag(t));
    }

    private void emitEndTag(EndTag t) {
        if (removing != 0) {
            return;
        }
        t.m.writeBefore(out);
        if (t.m.removed) {
            t.m.writeToken(out, null, 0, 0);
        } else if (t.renamed != null) {
            out.writeBytes(("</" + t.renamed + ">").getBytes(StandardCharsets.UTF_8));
        } else {
            out.write(t.raw, 0, t.raw.length);
        }
        t.m.writeAfter(out);
    }

    private void emitText(TextChunk t) {
        if (removing != 0) {
            return;
        }
        t.m.writeBefore(out);
        byte[] b = t.text.getBytes(StandardCharsets.UTF_8);
        t.m.writeToken(out, b, 0, b.length);
        t.m.writeAfter(out);
    }

    private void emitComment(CommentToken c) {
        if (removing != 0) {
            return;
        }
        c.m.writeBefore(out);
        byte[] b = c.modified ? ("<!--" + c.text + "-->").getBytes(StandardCharsets.UTF_8) : c.raw;
        c.m.writeToken(out, b, 0, b.length);
        c.m.writeAfter(out);
    }

    private void emit(byte[] b, int off, int len) {
        if (removing == 0) {
            out.write(b, off, len);
        }
    }

    private void finish() {
        for (byte[] b : endAppends) {
            out.writeBytes(b);
        }
        finished = true;
    }

    static byte[] escapeText(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String rep = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : null;
            if (rep != null) {
                if (b == null) {
                    b = new StringBuilder(s.length() + 16).append(s, 0, i);
                }
                b.append(rep);
            } else if (b != null) {
                b.append(c);
            }
        }
        return (b == null ? s : b.toString()).getBytes(StandardCharsets.UTF_8);
    }

    // ---- tokens ----

    private record Event(int kind, int[] regs, Object token, OpenElements.Entry entry, Runnable done) {
    }

    private static final class Attr {
        final String rawName;
        final String lower;
        String value;
        byte[] raw; // null once modified

        Attr(String rawName, String lower, String value, byte[] raw) {
            this.rawName = rawName;
            this.lower = lower;
            this.value = value;
            this.raw = raw;
        }
    }

    private static final class StartTag {
        final byte[] raw;
        final String rawName;
        final String name;
        final List<Attr> attrs;
        final boolean selfClosing;
        final int ns;
        final Mutations m = new Mutations();
        OpenElements.Entry entry;
        String renamed;
        boolean modified;
        boolean neededLexeme;

        StartTag(byte[] raw, String rawName, String name, List<Attr> attrs, boolean selfClosing, int ns) {
            this.raw = raw;
            this.rawName = rawName;
            this.name = name;
            this.attrs = attrs;
            this.selfClosing = selfClosing;
            this.ns = ns;
        }

        List<String[]> pairs() {
            if (attrs.isEmpty()) {
                return List.of();
            }
            List<String[]> p = new ArrayList<>(attrs.size());
            for (Attr a : attrs) {
                p.add(new String[] {a.lower, a.value});
            }
            return p;
        }

        byte[] serialize() {
            ByteArrayOutputStream b = new ByteArrayOutputStream(raw.length + 32);
            b.write('<');
            b.writeBytes((renamed != null ? renamed : rawName).getBytes(StandardCharsets.UTF_8));
            for (Attr a : attrs) {
                b.write(' ');
                if (a.raw != null) {
                    b.writeBytes(a.raw);
                } else {
                    b.writeBytes(a.rawName.getBytes(StandardCharsets.UTF_8));
                    b.writeBytes("=\"".getBytes(StandardCharsets.UTF_8));
                    b.writeBytes(a.value.replace("\"", "&quot;").getBytes(StandardCharsets.UTF_8));
                    b.write('"');
                }
            }
            if (selfClosing) {
                b.write(' ');
                b.write('/');
            }
            b.write('>');
            return b.toByteArray();
        }
    }

    private static final class EndTag {
        final byte[] raw;
        final String name;
        Mutations m = new Mutations();
        String renamed;

        EndTag(byte[] raw, String name) {
            this.raw = raw;
            this.name = name;
        }
    }

    private static final class TextChunk {
        final String text;
        final boolean last;
        final Mutations m = new Mutations();

        TextChunk(String text, boolean last) {
            this.text = text;
            this.last = last;
        }
    }

    private static final class CommentToken {
        final byte[] raw;
        String text;
        boolean modified;
        final Mutations m = new Mutations();

        CommentToken(byte[] raw, String text) {
            this.raw = raw;
            this.text = text;
        }
    }

    private record DoctypeToken(byte[] raw, String name, String publicId, String systemId) {
    }

    private static final class DocEnd {
    }
}
