package dev.cellgate.js.graal;

import dev.cellgate.js.graal.support.Differential;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential harness for JS RPC by reference: the fixture in
 * {@code src/test/resources/conformance-rpc} (a Worker, three Durable Object classes and RpcTargets)
 * runs on workerd (miniflare) and on cellgate's real cell host ({@code HostedCells}: every object in
 * its own context, as on a node). Cases cover RpcTarget and function stubs, their shapes, dup and
 * disposal (the target's {@code [Symbol.dispose]} included), the lifetimes of arguments and results,
 * pipelining, stubs moved through a third object, and what cannot travel, error messages included.
 */
class RpcConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-rpc");
    static final int MIN_CASES = 100;

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        return Differential.casesOnOwnHostedCells(FIXTURE, MIN_CASES);
    }
}
