package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code CREATE TRIGGER … BEGIN … CASE … END; … END;} in one {@code sql.exec()} text, with
 * statements after it (issue 30, item 9): the fixture in {@code src/test/resources/conformance-sql-trigger}
 * runs on workerd (miniflare, SQLite-backed object) and on cellgate's real cell host, and must
 * answer the same. Without miniflare: failure under {@code CI=true}, else nothing runs.
 */
class SqlTriggerConformanceTest {
    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        TestEngine engine = new TestEngine();
        return Differential.casesOnHostedCells(engine, Path.of("src/test/resources/conformance-sql-trigger"), 6).onClose(engine::close);
    }
}
