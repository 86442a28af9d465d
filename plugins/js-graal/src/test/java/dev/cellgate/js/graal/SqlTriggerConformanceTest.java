package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code CREATE TRIGGER … BEGIN … CASE … END; … END;} in one {@code sql.exec()} text, with
 * statements after it (issue 30, item 9): the fixture in {@code src/test/resources/conformance-sql-trigger}
 * runs on workerd (miniflare, SQLite-backed object) and on cellgate's real cell host, and must
 * answer the same. Without miniflare: failure under {@code CI=true}, else nothing runs.
 */
class SqlTriggerConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-sql-trigger");

    static TestEngine engine;

    @BeforeAll
    static void start() {
        engine = new TestEngine();
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnHostedCells(engine, FIXTURE, 6);
    }
}
