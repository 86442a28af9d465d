package dev.cellgate.js.graal.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.LoadedScript;
import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.js.graal.JsLimits;
import dev.cellgate.js.graal.instance.LimitExceededException;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import dev.cellgate.js.graal.support.Wat;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What must hold for module types whatever the code does: the CPU budget stops Wasm; contexts do not share a Data module's bytes. */
class WasmAndDataSafetyTest {

    static ScriptBundle bundle(Map<String, BundleModule> files) {
        return ScriptBundle.of("safety", "safety", "index.js", files, Map.of(), Map.of(), "2025-01-01", List.of());
    }

    static BundleModule js(String s) {
        return new BundleModule(ModuleType.ES_MODULE, s.getBytes(StandardCharsets.UTF_8));
    }

    /** A bundle of {@code index} and spin.wasm, whose {@code spin} loops forever and {@code one} answers 1. */
    static Map<String, BundleModule> withSpinWasm(String index) throws Exception {
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", js(index));
        files.put("spin.wasm", new BundleModule(ModuleType.COMPILED_WASM,
                Wat.assemble("(module (func (export \"spin\") (loop br 0)) (func (export \"one\") (result i32) i32.const 1))")));
        return files;
    }

    /** {@code /spin} is stopped by the 300 ms budget, and then {@code /ok} answers {@code ok}. */
    static void stoppedThenServes(TestWorker w, String ok) throws Exception {
        assertThatThrownBy(() -> w.get("http://x.test/spin")).cause().isInstanceOf(LimitExceededException.class)
                .hasMessageContaining("CPU budget of 300 ms");
        assertThat(w.text("http://x.test/ok")).isEqualTo(ok);
    }

    @Test
    void aWasmInfiniteLoopIsStoppedByTheCpuBudgetAndTheInstanceKeepsServing() throws Exception {
        Wat.assume();
        Map<String, BundleModule> files = withSpinWasm("""
                import spin from './spin.wasm';
                const inst = new WebAssembly.Instance(spin, {});
                export default { fetch(req) {
                  if (new URL(req.url).pathname === '/spin') inst.exports.spin();
                  return new Response('still serving ' + inst.exports.one());
                } };""");
        try (TestEngine engine = new TestEngine(new JsLimits(300, 1L << 30, 10)); TestWorker w = engine.worker(bundle(files))) {
            stoppedThenServes(w, "still serving 1");
        }
    }

    /**
     * A handler cannot catch the CPU budget's stop of a Wasm call and answer anyway: as on
     * workerd, the exceeded limit is the event's outcome. (Chicory returns to JavaScript when
     * interrupted, before the context's own interrupt lands; CI once saw that Error as the answer.)
     */
    @Test
    void aHandlerThatCatchesTheInterruptedWasmCallStillFailsWithTheLimit() throws Exception {
        Wat.assume();
        Map<String, BundleModule> files = withSpinWasm("""
                import spin from './spin.wasm';
                const inst = new WebAssembly.Instance(spin, {});
                export default { fetch(req) {
                  if (new URL(req.url).pathname === '/spin') {
                    try { inst.exports.spin(); } catch (e) { return new Response('caught ' + e.message); }
                  }
                  return new Response('still serving ' + inst.exports.one());
                } };""");
        try (TestEngine engine = new TestEngine(new JsLimits(300, 1L << 30, 10)); TestWorker w = engine.worker(bundle(files))) {
            // The race is narrow (Chicory's return against the context's interrupt): several tries.
            for (int i = 0; i < 6; i++) {
                stoppedThenServes(w, "still serving 1");
            }
        }
    }

    /** The same for a turn that answered and then spun: the answer is handed over only after the turn, and the turn was stopped. */
    @Test
    void aTurnThatAnswersAndThenSpinsFailsWithTheLimit() throws Exception {
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", js("""
                export default { fetch(req) {
                  if (new URL(req.url).pathname === '/spin') queueMicrotask(() => { for (;;) {} });
                  return new Response('answered');
                } };"""));
        try (TestEngine engine = new TestEngine(new JsLimits(300, 1L << 30, 10)); TestWorker w = engine.worker(bundle(files))) {
            stoppedThenServes(w, "answered");
        }
    }

    static Map<String, BundleModule> dataBundle() {
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", js("""
                import data from './d.bin';
                export default { fetch(req) {
                  const v = new Uint8Array(data);
                  if (new URL(req.url).pathname === '/write') v[0] = 99;
                  return new Response(String(v[0]));
                } };"""));
        files.put("d.bin", new BundleModule(ModuleType.DATA, new byte[] {7}));
        return files;
    }

    /** Two Workers (two contexts) of one deployment: one's write to its Data module is not the other's. */
    static String secondContextAfterAWrite(TestEngine engine) throws Exception {
        LoadedScript script = engine.load(bundle(dataBundle()));
        try (TestWorker a = engine.worker(script.bundle()); TestWorker b = engine.worker(script.bundle())) {
            assertThat(a.text("http://x.test/write")).isEqualTo("99");
            return b.text("http://x.test/read");
        } finally {
            script.close();
        }
    }

    @Test
    void eachContextHasItsOwnCopyOfADataModule() throws Exception {
        try (TestEngine engine = new TestEngine()) {
            assertThat(secondContextAfterAWrite(engine)).isEqualTo("7");
        }
    }

    @Test
    void negativeControlWithoutTheCopyContextsCorruptEachOther() throws Exception {
        BundleModules.copyDataPerContext = false;
        try (TestEngine engine = new TestEngine()) {
            assertThat(secondContextAfterAWrite(engine)).isEqualTo("99");
        } finally {
            BundleModules.copyDataPerContext = true;
        }
    }
}
