package dev.cellgate.core.cell.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqlTextTest {
    @Test
    void splitsStatementsOutsideQuotesAndComments() {
        var s = SqlText.parse("CREATE TABLE t(a); -- c;omment\nINSERT INTO t VALUES('x;y'); /* ; */ SELECT * FROM t;");
        assertThat(s).extracting(SqlText.Statement::keyword).containsExactly("CREATE", "INSERT", "SELECT");
        assertThat(s.get(1).text()).contains("'x;y'");
        assertThat(s).extracting(SqlText.Statement::writes).containsExactly(true, true, false);
    }

    @Test
    void triggerBodiesKeepTheirSemicolons() {
        var s = SqlText.parse("CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE u SET n = n + 1; DELETE FROM v; END; SELECT 1");
        assertThat(s).hasSize(2);
        assertThat(s.get(0).text()).endsWith("END");
    }

    /**
     * SQLite ends a trigger at an {@code END} that starts a statement of the body (right after a
     * {@code ;}), as {@code sqlite3_complete} does; a {@code CASE … END} expression inside the body
     * or the {@code WHEN} clause does not end it.
     */
    @Test
    void aCaseExpressionInsideATriggerDoesNotEndIt() {
        var s = SqlText.parse("""
                CREATE TRIGGER tr AFTER INSERT ON t WHEN CASE WHEN new.a > 0 THEN 1 ELSE 0 END BEGIN
                  UPDATE u SET n = CASE WHEN n > 10 THEN 0 ELSE n + 1 END;
                  INSERT INTO log VALUES (CASE new.a WHEN 1 THEN 'one' ELSE 'many' END);
                  DELETE FROM v WHERE k = (CASE WHEN new.a IS NULL THEN 'x' END);
                END;
                INSERT INTO t VALUES (1); SELECT n FROM u""");
        assertThat(s).extracting(SqlText.Statement::keyword).containsExactly("CREATE", "INSERT", "SELECT");
        assertThat(s.get(0).text()).startsWith("CREATE TRIGGER").endsWith("END").contains("'many' END);");
    }

    @Test
    void aTriggerWithAnIfNotExistsClauseAndRaiseIsOneStatementToo() {
        var s = SqlText.parse("CREATE TRIGGER IF NOT EXISTS tr BEFORE DELETE ON t BEGIN "
                + "SELECT CASE WHEN old.k = 'keep' THEN RAISE(ABORT, 'kept') END; END; SELECT 2");
        assertThat(s).extracting(SqlText.Statement::keyword).containsExactly("CREATE", "SELECT");
    }

    @ParameterizedTest
    @ValueSource(strings = {"BEGIN", "begin transaction", "COMMIT", "END", "ROLLBACK", "SAVEPOINT a", "RELEASE a",
            "ATTACH DATABASE 'x' AS y", "DETACH y", "SELECT 1; COMMIT", "PRAGMA journal_mode=DELETE", "PRAGMA writable_schema=1",
            "SELECT * FROM _cf_KV", "CREATE TABLE _CF_mine(a)", "SELECT \"_cf_KV\".key FROM x", "SELECT [_cf_x] FROM y",
            "CREATE TEMP TABLE x(a)", "create temporary view v as select 1", "CREATE TEMP TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END"})
    void refusesWhatADurableObjectMayNotRun(String sql) {
        assertThatThrownBy(() -> SqlText.parse(sql)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void allowsDescriptivePragmasAndCfInsideStrings() {
        assertThat(SqlText.parse("PRAGMA table_info(t)").get(0).writes()).isFalse();
        assertThat(SqlText.parse("SELECT '_cf_KV is a string'").get(0).keyword()).isEqualTo("SELECT");
        assertThatThrownBy(() -> SqlText.parse("  -- only a comment")).hasMessageContaining("no statement");
    }
}
