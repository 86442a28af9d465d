package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * nodejs_compat against workerd: the fixture bundles under {@code src/test/resources/conformance-node}
 * (the main one with {@code ["nodejs_compat"]}, and smaller ones for other dates and flags) run on
 * miniflare 4.20260730.0 and on cellgate, on the same bytes; see {@link Differential}.
 */
class NodeConformanceTest extends WithEngineAndOrigin {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-node");
    static final int MIN_CASES = 70;


    @TestFactory
    Stream<DynamicTest> nodejsCompat() throws Exception {
        return fixture(FIXTURE, MIN_CASES);
    }

    /** No flag: node: imports fail with workerd's "No such module", node:process still resolves, no globals. */
    @TestFactory
    Stream<DynamicTest> withoutTheFlag() throws Exception {
        return fixture(FIXTURE.resolve("without-flag"), 3);
    }

    /** nodejs_als alone: AsyncLocalStorage and nothing else. */
    @TestFactory
    Stream<DynamicTest> asyncLocalStorageAlone() throws Exception {
        return fixture(FIXTURE.resolve("als-only"), 2);
    }

    /** nodejs_compat before 2024-09-23: no globals, no bare specifiers, empty process.env. */
    @TestFactory
    Stream<DynamicTest> beforeNodejsCompatV2() throws Exception {
        return fixture(FIXTURE.resolve("v1-date"), 3);
    }

    /** nodejs_compat at 2025-06-01: globals and process.env, the small process, no node:os yet. */
    @TestFactory
    Stream<DynamicTest> beforeProcessV2() throws Exception {
        return fixture(FIXTURE.resolve("mid-date"), 2);
    }

    /** nodejs_compat from 2026-02-10: the global timers are node:timers' (Timeout objects). */
    @TestFactory
    Stream<DynamicTest> globalTimers() throws Exception {
        return fixture(FIXTURE.resolve("global-timers"), 2);
    }

    /**
     * Typed modules: a CommonJS module require()s node: modules, and bare names under
     * nodejs_compat_v2; before it (commonjs-v1) a bare name is a path in the bundle.
     */
    @TestFactory
    Stream<DynamicTest> commonJsRequire() throws Exception {
        return Stream.concat(fixture(FIXTURE.resolve("commonjs"), 2), fixture(FIXTURE.resolve("commonjs-v1"), 1));
    }

    static Stream<DynamicTest> fixture(Path fixture, int minCases) throws Exception {
        return Differential.casesOnWorker(engine, fixture, minCases, origin.url());
    }
}
