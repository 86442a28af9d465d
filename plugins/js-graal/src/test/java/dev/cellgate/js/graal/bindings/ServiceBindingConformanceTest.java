package dev.cellgate.js.graal.bindings;

import dev.cellgate.core.bindings.ServiceBindingProvider;
import dev.cellgate.core.spi.js.BindingRegistry;
import dev.cellgate.js.graal.support.Differential;
import dev.cellgate.js.graal.support.TestEngine;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The differential harness for service bindings to the Worker itself and ctx.exports: the fixture
 * {@code src/test/resources/conformance-services} (a default export, the named WorkerEntrypoints
 * Api and NoFetch, a plain-object export and a Durable Object, bound as SELF, API, API_PROPS,
 * NOFETCH and PLAIN) runs on workerd (miniflare) and on cellgate's real cell host, which serves
 * the binding type through runtime-core's {@link ServiceBindingProvider}. Cases cover fetch (URLs,
 * Requests, streamed bodies both ways, a fresh ctx, waitUntil), RPC (values, structured types,
 * errors, reserved and missing members, getters, props), RpcTargets and functions by reference,
 * pipelining, ctx.exports from a Worker, an entrypoint and a Durable Object, and calls made by a
 * Durable Object (inside blockConcurrencyWhile too).
 */
class ServiceBindingConformanceTest {
    static final Path FIXTURE = Path.of("src/test/resources/conformance-services");
    static final int MIN_CASES = 90;

    @TestFactory
    Stream<DynamicTest> sameAnswersAsWorkerd() throws Exception {
        TestEngine engine = new TestEngine(BindingRegistry.of(new ServiceBindingProvider()));
        try {
            return Differential.casesOnHostedCells(engine, FIXTURE, MIN_CASES).onClose(engine::close);
        } catch (Exception | Error e) {
            engine.close();
            throw e;
        }
    }
}
