package dev.cellgate.core.cell.storage;

/**
 * The smallest string greater than every string that starts with a prefix, in code-point (=
 * UTF-8 byte) order: the prefix with its last code point incremented. Lets a prefix listing use
 * the key index as a range instead of scanning to the end.
 */
final class PrefixBound {
    private PrefixBound() {
    }

    /** Null when no such bound exists (the prefix is all U+10FFFF). */
    static String upperBound(String prefix) {
        int[] cps = prefix.codePoints().toArray();
        for (int i = cps.length - 1; i >= 0; i--) {
            int next = cps[i] + 1;
            if (next == 0xD800) {
                next = 0xE000; // skip the surrogate range: not code points of valid text
            }
            if (next <= Character.MAX_CODE_POINT) {
                StringBuilder b = new StringBuilder();
                for (int j = 0; j < i; j++) {
                    b.appendCodePoint(cps[j]);
                }
                return b.appendCodePoint(next).toString();
            }
        }
        return null;
    }
}
