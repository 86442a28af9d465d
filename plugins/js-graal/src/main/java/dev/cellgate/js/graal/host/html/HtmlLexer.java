package dev.cellgate.js.graal.host.html;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A streaming HTML tokenizer over bytes with the lexeme boundaries of lol-html, the rewriter workerd
 * uses: the HTML standard's tokenizer states (data, RCDATA, raw text, script data with its escapes,
 * PLAINTEXT, CDATA in foreign content, tags, attributes, comments, doctypes), where every lexeme is a
 * byte range of the input, so that unmodified markup is copied exactly. Text is cut where lol-html
 * cuts it: before every {@code <} that may start markup, after a {@code <...} that turned out to be
 * text, and at the end of each input chunk in the text states that emit there; a lexeme still open
 * at the end of a chunk waits for the next one (its bytes stay in the buffer).
 *
 * <p>Pull-based: {@link #next()} answers one lexeme at a time (or {@link #NEED_INPUT}), so the
 * rewriter can stop between lexemes while JavaScript handlers run.
 */
final class HtmlLexer {
    static final int NEED_INPUT = 0;
    static final int TEXT = 1;
    /** Bytes that are markup without a token ({@code </>}, a tag cut off by the end, CDATA brackets). */
    static final int RAW = 2;
    static final int START_TAG = 3;
    static final int END_TAG = 4;
    static final int COMMENT = 5;
    static final int DOCTYPE = 6;
    static final int EOF = 7;

    // ---- states ----
    private static final int DATA = 0;
    private static final int TAG_OPEN = 1;
    private static final int END_TAG_OPEN = 2;
    private static final int MARKUP_DECL = 3;
    private static final int TAG_NAME = 4;
    private static final int SELF_CLOSING = 5;
    private static final int BEFORE_ATTR_NAME = 6;
    private static final int ATTR_NAME = 7;
    private static final int AFTER_ATTR_NAME = 8;
    private static final int BEFORE_ATTR_VALUE = 9;
    private static final int ATTR_VALUE_QUOTED = 10;
    private static final int ATTR_VALUE_UNQUOTED = 11;
    private static final int BOGUS_COMMENT = 12;
    private static final int COMMENT_START = 13;
    private static final int COMMENT_STATE = 14;
    private static final int COMMENT_START_DASH = 15;
    private static final int COMMENT_END_DASH = 16;
    private static final int COMMENT_END = 17;
    private static final int COMMENT_END_BANG = 18;
    private static final int COMMENT_LT = 19;
    private static final int COMMENT_LT_BANG = 20;
    private static final int COMMENT_LT_BANG_DASH = 21;
    private static final int COMMENT_LT_BANG_DASH_DASH = 22;
    private static final int DOCTYPE_STATE = 23;
    private static final int BEFORE_DOCTYPE_NAME = 24;
    private static final int DOCTYPE_NAME = 25;
    private static final int AFTER_DOCTYPE_NAME = 26;
    private static final int AFTER_PUBLIC_KEYWORD = 27;
    private static final int AFTER_SYSTEM_KEYWORD = 28;
    private static final int BEFORE_PUBLIC_ID = 29;
    private static final int BEFORE_SYSTEM_ID = 30;
    private static final int PUBLIC_ID = 31;
    private static final int SYSTEM_ID = 32;
    private static final int AFTER_PUBLIC_ID = 33;
    private static final int AFTER_SYSTEM_ID = 34;
    private static final int BETWEEN_IDS = 35;
    private static final int BOGUS_DOCTYPE = 36;
    private static final int RAWTEXT = 37;
    private static final int RAWTEXT_LT = 38;
    private static final int RAWTEXT_END_TAG_OPEN = 39;
    private static final int RAWTEXT_END_TAG_NAME = 40;
    private static final int SCRIPT = 41;
    private static final int SCRIPT_LT = 42;
    private static final int SCRIPT_END_TAG_OPEN = 43;
    private static final int SCRIPT_END_TAG_NAME = 44;
    private static final int SCRIPT_ESCAPE_START = 45;
    private static final int SCRIPT_ESCAPED_DASH_DASH = 46;
    private static final int SCRIPT_ESCAPED = 47;
    private static final int SCRIPT_ESCAPED_LT = 48;
    private static final int SCRIPT_ESCAPED_END_TAG_OPEN = 49;
    private static final int SCRIPT_ESCAPED_END_TAG_NAME = 50;
    private static final int SCRIPT_DOUBLE_ESCAPE_START = 51;
    private static final int SCRIPT_DOUBLE_ESCAPED = 52;
    private static final int SCRIPT_DOUBLE_ESCAPED_DASH_DASH = 53;
    private static final int SCRIPT_DOUBLE_ESCAPED_LT = 54;
    private static final int SCRIPT_DOUBLE_ESCAPED_END_TAG_NAME = 55;
    private static final int SCRIPT_DOUBLE_ESCAPED_END = 56;
    private static final int PLAINTEXT = 57;
    private static final int CDATA = 58;
    private static final int CDATA_BRACKET = 59;

    private static final int SEQ_NO = 0;
    private static final int SEQ_YES = 1;
    private static final int SEQ_MORE = 2;

    private final TreeSimulator tree = new TreeSimulator();

    private byte[] buf = new byte[4096];
    private int limit;
    private boolean eof;
    private boolean eofEmitted;
    private int pos;
    private int lexemeStart;
    private int state = DATA;
    private int pendingLexeme = NEED_INPUT; // a lexeme decided together with the previous one (text + EOF)

    // the current lexeme
    int rawStart;
    int rawEnd;
    int nameStart;
    int nameEnd;
    boolean selfClosing;
    boolean isStartTag;
    /** Attributes of the current start tag: per attribute nameStart, nameEnd, valueStart, valueEnd, rawStart, rawEnd (-1 when absent). */
    int[] attrs = new int[48];
    int attrCount;
    int commentStart;
    int commentEnd;
    int doctypeNameStart;
    int doctypeNameEnd;
    int publicStart;
    int publicEnd;
    int systemStart;
    int systemEnd;
    /** Namespace of the last start tag after the tree simulation ({@link TreeSimulator#HTML}...). */
    int namespace;
    /** Whether lol-html's tag scanner would have handed the last start tag to its lexer for the tree simulation. */
    boolean neededLexeme;

    private int tokenPartStart;
    private byte closingQuote;
    private String lastStartTagName = "";
    private int attrNameStart;
    private int attrNameEnd;

    /** Appends input; earlier lexemes are gone from the buffer afterwards. */
    void write(byte[] chunk, int off, int len) {
        compact();
        if (limit + len > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, limit + len));
        }
        System.arraycopy(chunk, off, buf, limit, len);
        limit += len;
    }

    void end() {
        eof = true;
    }

    byte[] buffer() {
        return buf;
    }

    private void compact() {
        int d = lexemeStart;
        if (d == 0) {
            return;
        }
        System.arraycopy(buf, d, buf, 0, limit - d);
        limit -= d;
        pos -= d;
        lexemeStart = 0;
        tokenPartStart -= d;
        nameStart -= d;
        nameEnd -= d;
        attrNameStart -= d;
        attrNameEnd -= d;
        commentStart -= d;
        commentEnd -= d;
        doctypeNameStart = shift(doctypeNameStart, d);
        doctypeNameEnd = shift(doctypeNameEnd, d);
        publicStart = shift(publicStart, d);
        publicEnd = shift(publicEnd, d);
        systemStart = shift(systemStart, d);
        systemEnd = shift(systemEnd, d);
        for (int i = 0; i < attrCount * 6; i++) {
            attrs[i] = shift(attrs[i], d);
        }
    }

    private static int shift(int v, int d) {
        return v < 0 ? v : v - d;
    }

    String string(int start, int end) {
        return new String(buf, start, end - start, StandardCharsets.UTF_8);
    }

    String lowerName() {
        return lower(nameStart, nameEnd);
    }

    String lower(int start, int end) {
        char[] c = new char[end - start];
        boolean ascii = true;
        for (int i = start; i < end; i++) {
            int b = buf[i] & 0xff;
            if (b >= 0x80) {
                ascii = false;
                break;
            }
            c[i - start] = (char) (b >= 'A' && b <= 'Z' ? b + 32 : b);
        }
        if (ascii) {
            return new String(c);
        }
        return asciiLower(string(start, end));
    }

    static String asciiLower(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch >= 'A' && ch <= 'Z') {
                if (b == null) {
                    b = new StringBuilder(s);
                }
                b.setCharAt(i, (char) (ch + 32));
            }
        }
        return b == null ? s : b.toString();
    }

    /** Name/value pairs of the current start tag's attributes (names lower-cased, values raw). */
    List<String[]> attributePairs() {
        List<String[]> out = new ArrayList<>(attrCount);
        for (int i = 0; i < attrCount; i++) {
            int o = i * 6;
            String v = attrs[o + 2] < 0 ? "" : string(attrs[o + 2], attrs[o + 3]);
            out.add(new String[] {lower(attrs[o], attrs[o + 1]), v});
        }
        return out;
    }

    // ---- the state machine ----

    private static boolean ws(int c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == 0x0c;
    }

    private static boolean alpha(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    /** Whether {@code s} (ASCII, upper case when ignoring case) starts at pos; SEQ_MORE when the input ends inside a match. */
    private int seq(String s, boolean ignoreCase) {
        for (int i = 0; i < s.length(); i++) {
            if (pos + i >= limit) {
                return eof ? SEQ_NO : SEQ_MORE;
            }
            int c = buf[pos + i] & 0xff;
            if (ignoreCase && c >= 'a' && c <= 'z') {
                c -= 32;
            }
            if (c != s.charAt(i)) {
                return SEQ_NO;
            }
        }
        return SEQ_YES;
    }

    private boolean textEmit(int end) {
        if (end > lexemeStart) {
            rawStart = lexemeStart;
            rawEnd = end;
            lexemeStart = end;
            return true;
        }
        return false;
    }

    private int emitRaw(int end) {
        rawStart = lexemeStart;
        rawEnd = end;
        lexemeStart = end;
        return RAW;
    }

    private int emitToken(int kind, int end) {
        rawStart = lexemeStart;
        rawEnd = end;
        lexemeStart = end;
        return kind;
    }

    /** At the end of all input in {@code state}: what is left becomes text, raw markup, a comment or a doctype, then EOF. */
    private int atEof() {
        if (eofEmitted) {
            return EOF;
        }
        eofEmitted = true;
        pendingLexeme = EOF;
        switch (state) {
            case TAG_NAME, SELF_CLOSING, BEFORE_ATTR_NAME, ATTR_NAME, AFTER_ATTR_NAME, BEFORE_ATTR_VALUE, ATTR_VALUE_QUOTED,
                 ATTR_VALUE_UNQUOTED -> {
                if (limit > lexemeStart) {
                    return emitRaw(limit);
                }
            }
            case BOGUS_COMMENT, MARKUP_DECL -> {
                commentStart = tokenPartStart;
                commentEnd = limit;
                return emitToken(COMMENT, limit);
            }
            case COMMENT_STATE, COMMENT_LT, COMMENT_LT_BANG -> {
                commentEnd = limit;
                return emitToken(COMMENT, limit);
            }
            case COMMENT_START, COMMENT_START_DASH, COMMENT_END_DASH, COMMENT_END, COMMENT_END_BANG, COMMENT_LT_BANG_DASH,
                 COMMENT_LT_BANG_DASH_DASH -> {
                if (state == COMMENT_START) {
                    commentEnd = limit;
                }
                return emitToken(COMMENT, limit);
            }
            case DOCTYPE_STATE, BEFORE_DOCTYPE_NAME, AFTER_DOCTYPE_NAME, AFTER_PUBLIC_KEYWORD, AFTER_SYSTEM_KEYWORD, BEFORE_PUBLIC_ID,
                 BEFORE_SYSTEM_ID, AFTER_PUBLIC_ID, AFTER_SYSTEM_ID, BETWEEN_IDS, BOGUS_DOCTYPE -> {
                return emitToken(DOCTYPE, limit);
            }
            case DOCTYPE_NAME -> {
                doctypeNameEnd = limit;
                return emitToken(DOCTYPE, limit);
            }
            case PUBLIC_ID -> {
                publicEnd = limit;
                return emitToken(DOCTYPE, limit);
            }
            case SYSTEM_ID -> {
                systemEnd = limit;
                return emitToken(DOCTYPE, limit);
            }
            default -> {
                if (textEmit(limit)) {
                    return TEXT;
                }
            }
        }
        pendingLexeme = NEED_INPUT;
        return EOF;
    }

    /** The next lexeme; its ranges are valid until the next call or write. */
    int next() {
        if (pendingLexeme != NEED_INPUT) {
            int p = pendingLexeme;
            pendingLexeme = NEED_INPUT;
            return p;
        }
        while (true) {
            if (pos >= limit) {
                if (eof) {
                    return atEof();
                }
                // the end of a chunk: the text states that emit there do so
                if ((state == DATA || state == RAWTEXT || state == SCRIPT || state == PLAINTEXT || state == CDATA) && textEmit(limit)) {
                    return TEXT;
                }
                return NEED_INPUT;
            }
            int c = buf[pos] & 0xff;
            int r = step(c);
            if (r == NEED_INPUT_AT_END) {
                return NEED_INPUT;
            }
            if (r != NEED_INPUT) {
                return r;
            }
        }
    }

    private void enterCommentStart() {
        commentStart = pos;
        commentEnd = pos;
        state = COMMENT_START;
    }

    private void createDoctype() {
        doctypeNameStart = doctypeNameEnd = publicStart = publicEnd = systemStart = systemEnd = -1;
    }

    private void startTagToken(boolean start) {
        isStartTag = start;
        selfClosing = false;
        attrCount = 0;
        nameStart = pos;
    }

    private void finishAttr(int valueStart, int valueEnd, int rawEnd) {
        if (!isStartTag) {
            return;
        }
        if (attrCount * 6 + 6 > attrs.length) {
            attrs = Arrays.copyOf(attrs, attrs.length * 2);
        }
        int o = attrCount * 6;
        attrs[o] = attrNameStart;
        attrs[o + 1] = attrNameEnd;
        attrs[o + 2] = valueStart;
        attrs[o + 3] = valueEnd;
        attrs[o + 4] = attrNameStart;
        attrs[o + 5] = rawEnd;
        attrCount++;
    }

    /** A tag ends at pos (inclusive): simulate the tree builder, pick the next text state. */
    private int emitTag() {
        int end = pos + 1;
        pos = end;
        state = DATA;
        if (isStartTag) {
            String name = lowerName();
            int mode = tree.startTag(name, selfClosing, attrCount == 0 ? List.of() : attributePairs());
            namespace = tree.namespace();
            neededLexeme = tree.neededLexeme();
            lastStartTagName = name;
            state = switch (mode) {
                case TreeSimulator.TEXT_RCDATA, TreeSimulator.TEXT_RAWTEXT -> RAWTEXT;
                case TreeSimulator.TEXT_SCRIPT -> SCRIPT;
                case TreeSimulator.TEXT_PLAINTEXT -> PLAINTEXT;
                default -> DATA;
            };
            return emitToken(START_TAG, end);
        }
        tree.endTag(lowerName());
        return emitToken(END_TAG, end);
    }

    private boolean appropriateEndTag() {
        int n = pos - nameStart;
        if (n != lastStartTagName.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            int c = buf[nameStart + i] & 0xff;
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != lastStartTagName.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** One input byte in the current state: a lexeme kind when one is complete, else NEED_INPUT to go on. */
    private int step(int c) {
        switch (state) {
            case DATA -> {
                if (c == '<') {
                    boolean t = textEmit(pos);
                    state = TAG_OPEN;
                    pos++;
                    if (t) {
                        return TEXT;
                    }
                    return NEED_INPUT;
                }
                pos++;
            }
            case TAG_OPEN -> {
                if (c == '!') {
                    pos++;
                    tokenPartStart = pos;
                    state = MARKUP_DECL;
                } else if (c == '/') {
                    pos++;
                    state = END_TAG_OPEN;
                } else if (alpha(c)) {
                    startTagToken(true);
                    pos++;
                    state = TAG_NAME;
                } else if (c == '?') {
                    commentStart = pos;
                    tokenPartStart = pos;
                    pos++;
                    state = BOGUS_COMMENT;
                } else {
                    return textReconsume(DATA);
                }
            }
            case END_TAG_OPEN -> {
                if (alpha(c)) {
                    startTagToken(false);
                    pos++;
                    state = TAG_NAME;
                } else if (c == '>') {
                    pos++;
                    state = DATA;
                    return emitRaw(pos);
                } else {
                    tokenPartStart = pos;
                    state = BOGUS_COMMENT;
                }
            }
            case MARKUP_DECL -> {
                int s = seq("--", false);
                if (s == SEQ_MORE) {
                    return NEED_INPUT_AT_END;
                }
                if (s == SEQ_YES) {
                    pos += 2;
                    enterCommentStart();
                    return NEED_INPUT;
                }
                s = seq("DOCTYPE", true);
                if (s == SEQ_MORE) {
                    return NEED_INPUT_AT_END;
                }
                if (s == SEQ_YES) {
                    pos += 7;
                    createDoctype();
                    state = DOCTYPE_STATE;
                    return NEED_INPUT;
                }
                s = seq("[CDATA[", false);
                if (s == SEQ_MORE) {
                    return NEED_INPUT_AT_END;
                }
                if (s == SEQ_YES) {
                    pos += 7;
                    if (tree.cdataAllowed()) {
                        state = CDATA;
                        return emitRaw(pos);
                    }
                    state = BOGUS_COMMENT;
                    return NEED_INPUT;
                }
                state = BOGUS_COMMENT;
            }
            case TAG_NAME -> {
                if (ws(c)) {
                    nameEnd = pos;
                    pos++;
                    state = BEFORE_ATTR_NAME;
                } else if (c == '/') {
                    nameEnd = pos;
                    pos++;
                    state = SELF_CLOSING;
                } else if (c == '>') {
                    nameEnd = pos;
                    return emitTag();
                } else {
                    pos++;
                }
            }
            case SELF_CLOSING -> {
                if (c == '>') {
                    selfClosing = true;
                    return emitTag();
                }
                state = BEFORE_ATTR_NAME;
            }
            case BEFORE_ATTR_NAME -> {
                if (ws(c)) {
                    pos++;
                } else if (c == '/') {
                    pos++;
                    state = SELF_CLOSING;
                } else if (c == '>') {
                    return emitTag();
                } else {
                    attrNameStart = pos;
                    pos++;
                    state = ATTR_NAME;
                }
            }
            case ATTR_NAME -> {
                if (ws(c)) {
                    attrNameEnd = pos;
                    pos++;
                    state = AFTER_ATTR_NAME;
                } else if (c == '/') {
                    attrNameEnd = pos;
                    finishAttr(-1, -1, pos);
                    pos++;
                    state = SELF_CLOSING;
                } else if (c == '>') {
                    attrNameEnd = pos;
                    finishAttr(-1, -1, pos);
                    return emitTag();
                } else if (c == '=') {
                    attrNameEnd = pos;
                    pos++;
                    state = BEFORE_ATTR_VALUE;
                } else {
                    pos++;
                }
            }
            case AFTER_ATTR_NAME -> {
                if (ws(c)) {
                    pos++;
                } else if (c == '/') {
                    finishAttr(-1, -1, attrNameEnd);
                    pos++;
                    state = SELF_CLOSING;
                } else if (c == '=') {
                    pos++;
                    state = BEFORE_ATTR_VALUE;
                } else if (c == '>') {
                    finishAttr(-1, -1, attrNameEnd);
                    return emitTag();
                } else {
                    finishAttr(-1, -1, attrNameEnd);
                    attrNameStart = pos;
                    pos++;
                    state = ATTR_NAME;
                }
            }
            case BEFORE_ATTR_VALUE -> {
                if (ws(c)) {
                    pos++;
                } else if (c == '"' || c == '\'') {
                    closingQuote = (byte) c;
                    pos++;
                    tokenPartStart = pos;
                    state = ATTR_VALUE_QUOTED;
                } else if (c == '>') {
                    finishAttr(-1, -1, attrNameEnd);
                    return emitTag();
                } else {
                    tokenPartStart = pos;
                    state = ATTR_VALUE_UNQUOTED;
                }
            }
            case ATTR_VALUE_QUOTED -> {
                if (c == (closingQuote & 0xff)) {
                    finishAttr(tokenPartStart, pos, pos + 1);
                    pos++;
                    state = BEFORE_ATTR_NAME;
                } else {
                    pos++;
                }
            }
            case ATTR_VALUE_UNQUOTED -> {
                if (ws(c)) {
                    finishAttr(tokenPartStart, pos, pos);
                    pos++;
                    state = BEFORE_ATTR_NAME;
                } else if (c == '>') {
                    finishAttr(tokenPartStart, pos, pos);
                    return emitTag();
                } else {
                    pos++;
                }
            }
            case BOGUS_COMMENT -> {
                if (c == '>') {
                    commentStart = tokenPartStart;
                    commentEnd = pos;
                    pos++;
                    state = DATA;
                    return emitToken(COMMENT, pos);
                }
                pos++;
            }
            case COMMENT_START -> {
                if (c == '-') {
                    commentEnd = pos;
                    pos++;
                    state = COMMENT_START_DASH;
                } else if (c == '>') {
                    commentEnd = pos;
                    return endComment();
                } else {
                    state = COMMENT_STATE;
                }
            }
            case COMMENT_STATE -> {
                if (c == '<') {
                    pos++;
                    state = COMMENT_LT;
                } else if (c == '-') {
                    commentEnd = pos;
                    pos++;
                    state = COMMENT_END_DASH;
                } else {
                    pos++;
                    commentEnd = pos;
                }
            }
            case COMMENT_START_DASH -> {
                if (c == '-') {
                    pos++;
                    state = COMMENT_END;
                } else if (c == '>') {
                    return endComment();
                } else {
                    state = COMMENT_STATE;
                }
            }
            case COMMENT_END_DASH -> {
                if (c == '-') {
                    pos++;
                    state = COMMENT_END;
                } else {
                    state = COMMENT_STATE;
                }
            }
            case COMMENT_END -> {
                if (c == '>') {
                    return endComment();
                } else if (c == '!') {
                    pos++;
                    state = COMMENT_END_BANG;
                } else if (c == '-') {
                    commentEnd++;
                    pos++;
                } else {
                    commentEnd += 2;
                    state = COMMENT_STATE;
                }
            }
            case COMMENT_LT -> {
                commentEnd = pos;
                if (c == '!') {
                    pos++;
                    state = COMMENT_LT_BANG;
                } else if (c == '<') {
                    pos++;
                } else {
                    state = COMMENT_STATE;
                }
            }
            case COMMENT_LT_BANG -> {
                commentEnd = pos;
                if (c == '-') {
                    pos++;
                    state = COMMENT_LT_BANG_DASH;
                } else {
                    state = COMMENT_STATE;
                }
            }
            case COMMENT_LT_BANG_DASH -> {
                if (c == '-') {
                    pos++;
                    state = COMMENT_LT_BANG_DASH_DASH;
                } else {
                    state = COMMENT_END_DASH;
                }
            }
            case COMMENT_LT_BANG_DASH_DASH -> state = COMMENT_END;
            case COMMENT_END_BANG -> {
                if (c == '-') {
                    commentEnd += 3;
                    pos++;
                    state = COMMENT_END_DASH;
                } else if (c == '>') {
                    return endComment();
                } else {
                    commentEnd += 3;
                    state = COMMENT_STATE;
                }
            }
            case DOCTYPE_STATE -> {
                if (ws(c)) {
                    pos++;
                    state = BEFORE_DOCTYPE_NAME;
                } else if (c == '>') {
                    return endDoctype();
                } else {
                    state = BEFORE_DOCTYPE_NAME;
                }
            }
            case BEFORE_DOCTYPE_NAME -> {
                if (ws(c)) {
                    pos++;
                } else if (c == '>') {
                    return endDoctype();
                } else {
                    doctypeNameStart = pos;
                    pos++;
                    state = DOCTYPE_NAME;
                }
            }
            case DOCTYPE_NAME -> {
                if (ws(c)) {
                    doctypeNameEnd = pos;
                    pos++;
                    state = AFTER_DOCTYPE_NAME;
                } else if (c == '>') {
                    doctypeNameEnd = pos;
                    return endDoctype();
                } else {
                    pos++;
                }
            }
            case AFTER_DOCTYPE_NAME -> {
                if (ws(c)) {
                    pos++;
                } else if (c == '>') {
                    return endDoctype();
                } else {
                    int s = seq("PUBLIC", true);
                    if (s == SEQ_MORE) {
                        return NEED_INPUT_AT_END;
                    }
                    if (s == SEQ_YES) {
                        pos += 6;
                        state = AFTER_PUBLIC_KEYWORD;
                        return NEED_INPUT;
                    }
                    s = seq("SYSTEM", true);
                    if (s == SEQ_MORE) {
                        return NEED_INPUT_AT_END;
                    }
                    if (s == SEQ_YES) {
                        pos += 6;
                        state = AFTER_SYSTEM_KEYWORD;
                        return NEED_INPUT;
                    }
                    pos++;
                    state = BOGUS_DOCTYPE;
                }
            }
            case AFTER_PUBLIC_KEYWORD, BEFORE_PUBLIC_ID, AFTER_SYSTEM_KEYWORD, BEFORE_SYSTEM_ID -> {
                boolean pub = state == AFTER_PUBLIC_KEYWORD || state == BEFORE_PUBLIC_ID;
                if (ws(c)) {
                    pos++;
                    if (state == AFTER_PUBLIC_KEYWORD) {
                        state = BEFORE_PUBLIC_ID;
                    } else if (state == AFTER_SYSTEM_KEYWORD) {
                        state = BEFORE_SYSTEM_ID;
                    }
                } else if (c == '"' || c == '\'') {
                    closingQuote = (byte) c;
                    pos++;
                    if (pub) {
                        publicStart = pos;
                        state = PUBLIC_ID;
                    } else {
                        systemStart = pos;
                        state = SYSTEM_ID;
                    }
                } else if (c == '>') {
                    return endDoctype();
                } else {
                    pos++;
                    state = BOGUS_DOCTYPE;
                }
            }
            case PUBLIC_ID, SYSTEM_ID -> {
                boolean pub = state == PUBLIC_ID;
                if (c == (closingQuote & 0xff)) {
                    if (pub) {
                        publicEnd = pos;
                    } else {
                        systemEnd = pos;
                    }
                    pos++;
                    state = pub ? AFTER_PUBLIC_ID : AFTER_SYSTEM_ID;
                } else if (c == '>') {
                    if (pub) {
                        publicEnd = pos;
                    } else {
                        systemEnd = pos;
                    }
                    return endDoctype();
                } else {
                    pos++;
                }
            }
            case AFTER_PUBLIC_ID, BETWEEN_IDS -> {
                if (ws(c)) {
                    pos++;
                    state = BETWEEN_IDS;
                } else if (c == '>') {
                    return endDoctype();
                } else if (c == '"' || c == '\'') {
                    closingQuote = (byte) c;
                    pos++;
                    systemStart = pos;
                    state = SYSTEM_ID;
                } else {
                    pos++;
                    state = BOGUS_DOCTYPE;
                }
            }
            case AFTER_SYSTEM_ID -> {
                if (ws(c)) {
                    pos++;
                } else if (c == '>') {
                    return endDoctype();
                } else {
                    pos++;
                    state = BOGUS_DOCTYPE;
                }
            }
            case BOGUS_DOCTYPE -> {
                if (c == '>') {
                    return endDoctype();
                }
                pos++;
            }
            case RAWTEXT, SCRIPT, PLAINTEXT -> {
                if (c == '<' && state != PLAINTEXT) {
                    boolean t = textEmit(pos);
                    state = state == RAWTEXT ? RAWTEXT_LT : SCRIPT_LT;
                    pos++;
                    return t ? TEXT : NEED_INPUT;
                }
                pos++;
            }
            case RAWTEXT_LT, SCRIPT_LT -> {
                boolean raw = state == RAWTEXT_LT;
                if (c == '/') {
                    pos++;
                    state = raw ? RAWTEXT_END_TAG_OPEN : SCRIPT_END_TAG_OPEN;
                } else if (c == '!' && !raw) {
                    pos++;
                    state = SCRIPT_ESCAPE_START;
                } else {
                    return textReconsume(raw ? RAWTEXT : SCRIPT);
                }
            }
            case RAWTEXT_END_TAG_OPEN, SCRIPT_END_TAG_OPEN, SCRIPT_ESCAPED_END_TAG_OPEN -> {
                if (alpha(c)) {
                    startTagToken(false);
                    pos++;
                    state = state == RAWTEXT_END_TAG_OPEN ? RAWTEXT_END_TAG_NAME
                            : state == SCRIPT_END_TAG_OPEN ? SCRIPT_END_TAG_NAME : SCRIPT_ESCAPED_END_TAG_NAME;
                } else {
                    return textReconsume(state == RAWTEXT_END_TAG_OPEN ? RAWTEXT : state == SCRIPT_END_TAG_OPEN ? SCRIPT : SCRIPT_ESCAPED);
                }
            }
            case RAWTEXT_END_TAG_NAME, SCRIPT_END_TAG_NAME, SCRIPT_ESCAPED_END_TAG_NAME -> {
                int back = state == RAWTEXT_END_TAG_NAME ? RAWTEXT : state == SCRIPT_END_TAG_NAME ? SCRIPT : SCRIPT_ESCAPED;
                if (alpha(c)) {
                    pos++;
                } else if ((ws(c) || c == '/' || c == '>') && appropriateEndTag()) {
                    nameEnd = pos;
                    if (c == '>') {
                        return emitTag();
                    }
                    pos++;
                    state = c == '/' ? SELF_CLOSING : BEFORE_ATTR_NAME;
                } else {
                    return textReconsume(back);
                }
            }
            case SCRIPT_ESCAPE_START -> {
                int s = seq("--", false);
                if (s == SEQ_MORE) {
                    return NEED_INPUT_AT_END;
                }
                if (s == SEQ_YES) {
                    pos += 2;
                    state = SCRIPT_ESCAPED_DASH_DASH;
                } else {
                    return textReconsume(SCRIPT);
                }
            }
            case SCRIPT_ESCAPED_DASH_DASH -> {
                if (c == '-') {
                    pos++;
                } else if (c == '<') {
                    return textThen(SCRIPT_ESCAPED_LT);
                } else if (c == '>') {
                    state = SCRIPT;
                    if (textEmit(pos)) {
                        return TEXT;
                    }
                } else {
                    pos++;
                    state = SCRIPT_ESCAPED;
                }
            }
            case SCRIPT_ESCAPED, SCRIPT_DOUBLE_ESCAPED -> {
                boolean dbl = state == SCRIPT_DOUBLE_ESCAPED;
                int s = seq("--", false);
                if (s == SEQ_MORE) {
                    return NEED_INPUT_AT_END;
                }
                if (s == SEQ_YES) {
                    pos += 2;
                    state = dbl ? SCRIPT_DOUBLE_ESCAPED_DASH_DASH : SCRIPT_ESCAPED_DASH_DASH;
                } else if (c == '<') {
                    return textThen(dbl ? SCRIPT_DOUBLE_ESCAPED_LT : SCRIPT_ESCAPED_LT);
                } else {
                    pos++;
                }
            }
            case SCRIPT_ESCAPED_LT -> {
                int s = seq("SCRIPT", true);
                if (s == SEQ_MORE) {
                    return NEED_INPUT_AT_END;
                }
                if (s == SEQ_YES) {
                    pos += 6;
                    state = SCRIPT_DOUBLE_ESCAPE_START;
                } else if (c == '/') {
                    pos++;
                    state = SCRIPT_ESCAPED_END_TAG_OPEN;
                } else {
                    return textReconsume(SCRIPT_ESCAPED);
                }
            }
            case SCRIPT_DOUBLE_ESCAPE_START -> {
                if (ws(c) || c == '/' || c == '>') {
                    pos++;
                    state = SCRIPT_DOUBLE_ESCAPED;
                } else {
                    state = SCRIPT_ESCAPED;
                }
            }
            case SCRIPT_DOUBLE_ESCAPED_DASH_DASH -> {
                if (c == '-') {
                    pos++;
                } else if (c == '<') {
                    pos++;
                    state = SCRIPT_DOUBLE_ESCAPED_LT;
                } else if (c == '>') {
                    state = SCRIPT;
                    if (textEmit(pos)) {
                        return TEXT;
                    }
                } else {
                    pos++;
                    state = SCRIPT_DOUBLE_ESCAPED;
                }
            }
            case SCRIPT_DOUBLE_ESCAPED_LT -> {
                if (c == '/') {
                    pos++;
                    state = SCRIPT_DOUBLE_ESCAPED_END_TAG_NAME;
                } else {
                    state = SCRIPT_DOUBLE_ESCAPED;
                }
            }
            case SCRIPT_DOUBLE_ESCAPED_END_TAG_NAME -> {
                int s = seq("SCRIPT", true);
                if (s == SEQ_MORE) {
                    return NEED_INPUT_AT_END;
                }
                if (s == SEQ_YES) {
                    pos += 6;
                    state = SCRIPT_DOUBLE_ESCAPED_END;
                } else {
                    state = SCRIPT_DOUBLE_ESCAPED;
                }
            }
            case SCRIPT_DOUBLE_ESCAPED_END -> {
                if (ws(c) || c == '/' || c == '>') {
                    pos++;
                    state = SCRIPT_ESCAPED;
                } else {
                    state = SCRIPT_DOUBLE_ESCAPED;
                }
            }
            case CDATA -> {
                if (c == ']') {
                    return textThen(CDATA_BRACKET);
                }
                pos++;
            }
            case CDATA_BRACKET -> {
                int s = seq("]>", false);
                if (s == SEQ_MORE) {
                    return NEED_INPUT_AT_END;
                }
                if (s == SEQ_YES) {
                    pos += 2;
                    state = DATA;
                    return emitRaw(pos);
                }
                return textReconsume(CDATA);
            }
            default -> throw new IllegalStateException("lexer state " + state);
        }
        return NEED_INPUT;
    }

    /** {@code emit_text; -->}: the text before pos is a lexeme; the byte at pos is consumed into state {@code next}. */
    private int textThen(int next) {
        boolean t = textEmit(pos);
        pos++;
        state = next;
        return t ? TEXT : NEED_INPUT;
    }

    /** {@code emit_text; reconsume in}: what was read since the lexeme start is text, and pos is read again in {@code back}. */
    private int textReconsume(int back) {
        state = back;
        textEmit(pos);
        return TEXT;
    }

    /** A sequence test ran into the end of the chunk: wait for more input without consuming. */
    private static final int NEED_INPUT_AT_END = -1;

    private int endComment() {
        pos++;
        state = DATA;
        return emitToken(COMMENT, pos);
    }

    private int endDoctype() {
        pos++;
        state = DATA;
        return emitToken(DOCTYPE, pos);
    }
}
