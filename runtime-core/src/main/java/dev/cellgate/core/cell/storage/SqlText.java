package dev.cellgate.core.cell.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits the text given to {@code sql.exec} into statements and checks each one against what a
 * Durable Object may run: no transaction control (the platform owns transactions: implicit per
 * turn, explicit through {@code transactionSync}), no {@code ATTACH}/{@code DETACH}, no
 * {@code _cf_} names (our own tables), and only read-only {@code PRAGMA}s that describe the schema.
 * Comments and string literals are skipped; a {@code CREATE TRIGGER} body keeps its inner {@code ;}:
 * as in SQLite's own {@code sqlite3_complete}, a trigger ends only at an {@code END} that follows a
 * {@code ;} of its body, so a {@code CASE … END} expression inside it (or in its {@code WHEN}) does not.
 */
public final class SqlText {
    private static final Set<String> REFUSED = Set.of("BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE",
            "ATTACH", "DETACH", "VACUUM");
    private static final Set<String> PRAGMAS = Set.of("table_info", "table_xinfo", "table_list", "index_list", "index_info",
            "index_xinfo", "foreign_key_list", "foreign_key_check", "quick_check", "integrity_check", "optimize",
            "collation_list", "function_list", "data_version", "page_count", "page_size", "freelist_count", "defer_foreign_keys",
            "case_sensitive_like", "legacy_alter_table", "recursive_triggers", "reverse_unordered_selects", "ignore_check_constraints");
    private static final Set<String> READS = Set.of("SELECT", "VALUES", "EXPLAIN");

    private SqlText() {
    }

    /** One checked statement; {@code writes} is false only for statements that cannot modify the database. */
    public record Statement(String text, String keyword, boolean writes) {
    }

    public static List<Statement> parse(String sql) {
        List<Statement> out = new ArrayList<>();
        int n = sql.length();
        int start = 0;
        int i = 0;
        boolean inTrigger = false;
        // Inside a trigger: the last token was a ';' of its body, so an END here is the trigger's own.
        boolean afterBodySemicolon = false;
        List<String> words = new ArrayList<>(4);
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = closeQuote(sql, i, c);
                if (c != '\'') {
                    checkIdentifier(sql.substring(i + 1, end - 1));
                }
                afterBodySemicolon = false;
                i = end;
            } else if (c == '[') {
                int end = sql.indexOf(']', i);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated [identifier] in SQL");
                }
                checkIdentifier(sql.substring(i + 1, end));
                afterBodySemicolon = false;
                i = end + 1;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int nl = sql.indexOf('\n', i);
                i = nl < 0 ? n : nl + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (Character.isLetter(c) || c == '_') {
                int s = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                String w = sql.substring(s, i);
                checkIdentifier(w);
                String up = w.toUpperCase(Locale.ROOT);
                if (words.size() < 4) {
                    words.add(up);
                }
                if (words.size() >= 2 && words.get(0).equals("CREATE")
                        && (up.equals("TRIGGER") && (words.size() == 2 || words.size() == 3))) {
                    inTrigger = true;
                }
                if (inTrigger && afterBodySemicolon && up.equals("END")) {
                    inTrigger = false;
                }
                afterBodySemicolon = false;
            } else if (c == ';' && inTrigger) {
                afterBodySemicolon = true;
                i++;
            } else if (c == ';') {
                add(out, sql.substring(start, i), words);
                words = new ArrayList<>(4);
                start = ++i;
            } else {
                if (!Character.isWhitespace(c)) {
                    afterBodySemicolon = false;
                }
                i++;
            }
        }
        add(out, sql.substring(start), words);
        if (out.isEmpty()) {
            throw new IllegalArgumentException("SQL text contains no statement");
        }
        return out;
    }

    private static void add(List<Statement> out, String text, List<String> words) {
        if (words.isEmpty()) {
            return; // only whitespace or comments
        }
        String kw = words.get(0);
        if (REFUSED.contains(kw)) {
            throw new IllegalArgumentException(kw + " is not allowed in ctx.storage.sql.exec(): "
                    + (kw.equals("ATTACH") || kw.equals("DETACH") || kw.equals("VACUUM")
                    ? "a Durable Object has exactly one database"
                    : "use ctx.storage.transactionSync() (writes in one event commit together automatically)"));
        }
        if (kw.equals("CREATE") && words.size() > 1 && (words.get(1).equals("TEMP") || words.get(1).equals("TEMPORARY"))) {
            // workerd refuses these too (SQLITE_AUTH): a temporary object is not in the replicated database.
            throw new IllegalArgumentException("CREATE " + words.get(1) + " is not allowed in a Durable Object: temporary "
                    + "tables, views and triggers would vanish when the object moves; create a regular one");
        }
        if (kw.equals("PRAGMA")) {
            String name = words.size() > 1 ? words.get(1).toLowerCase(Locale.ROOT) : "";
            if (!PRAGMAS.contains(name)) {
                throw new IllegalArgumentException("PRAGMA " + name + " is not allowed in a Durable Object");
            }
        }
        boolean writes = !(READS.contains(kw) || kw.equals("PRAGMA") && words.size() > 1
                && !words.get(1).equalsIgnoreCase("optimize") && !text.contains("="));
        out.add(new Statement(text.strip(), kw, writes));
    }

    private static void checkIdentifier(String w) {
        if (w.regionMatches(true, 0, "_cf_", 0, 4)) {
            throw new IllegalArgumentException("names starting with _cf_ are reserved (found '" + w + "')");
        }
    }

    private static int closeQuote(String sql, int i, char q) {
        int j = i + 1;
        while (j < sql.length()) {
            if (sql.charAt(j) == q) {
                if (j + 1 < sql.length() && sql.charAt(j + 1) == q) {
                    j += 2; // doubled quote inside the literal
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        throw new IllegalArgumentException("unterminated " + q + " quote in SQL");
    }
}
