package dev.cellgate.js.graal.modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.spi.js.BundleModule;
import dev.cellgate.core.spi.js.ModuleType;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import dev.cellgate.js.graal.support.Wat;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Bundles of several module types on the engine (the differential suite compares them with workerd). */
class ModuleTypesTest {
    @RegisterExtension
    static final TestEngine engine = new TestEngine();

    static BundleModule m(ModuleType t, String text) {
        return new BundleModule(t, text.getBytes(StandardCharsets.UTF_8));
    }

    static ScriptBundle bundle(Map<String, BundleModule> files) {
        return ScriptBundle.of("modules-test", "modules", "index.js", files, Map.of(), Map.of(), "2025-01-01", List.of());
    }

    @Test
    void textDataAndCommonJsModulesLoadAsWorkerdLoadsThem() throws Exception {
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", m(ModuleType.ES_MODULE, """
                import text from './t.txt';
                import data from './d.bin';
                import cjs from './lib/c.js';
                import * as ns from './lib/c.js';
                export default { fetch() {
                  return Response.json({ text, data: Object.prototype.toString.call(data) + new Uint8Array(data).join(','),
                    cjs, nsKeys: Object.keys(ns), again: cjs === ns.default });
                } };"""));
        files.put("t.txt", m(ModuleType.TEXT, "héllo"));
        files.put("d.bin", new BundleModule(ModuleType.DATA, new byte[] {1, 2, (byte) 255}));
        files.put("lib/c.js", m(ModuleType.COMMON_JS, """
                const t = require('../t.txt');
                const d = require('./d.js');
                exports.fromText = t;
                exports.d = d.x;
                exports.names = __filename + ' ' + __dirname + ' ' + module.path + ' ' + (this === globalThis) + ' ' + arguments.length;
                let missing; try { require('./nope.js'); } catch (e) { missing = e.name + ': ' + e.message; }
                exports.missing = missing;"""));
        files.put("lib/d.js", m(ModuleType.COMMON_JS, "module.exports = { x: 'dx' };"));
        try (TestWorker w = engine.worker(bundle(files))) {
            assertThat(w.text("http://x.test/")).isEqualTo("{\"text\":\"héllo\",\"data\":\"[object ArrayBuffer]1,2,255\","
                    + "\"cjs\":{\"fromText\":\"héllo\",\"d\":\"dx\",\"names\":\"/lib/c.js /lib /lib/c.js true 0\","
                    + "\"missing\":\"Error: No such module \\\"lib/nope.js\\\".\"},\"nsKeys\":[\"default\"],\"again\":true}");
        }
    }

    @Test
    void aCommonJsModuleThatDoesNotParseRefusesTheDeployment() {
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", m(ModuleType.ES_MODULE, "export default {};"));
        files.put("lib/bad.js", m(ModuleType.COMMON_JS, "module.exports = {;"));
        assertThatThrownBy(() -> engine.load(bundle(files))).isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("does not parse").hasMessageContaining("/bundle/lib/bad.js");
    }

    @Test
    void aCompiledWasmModuleIsAWebAssemblyModule() throws Exception {
        Wat.assume();
        byte[] wasm = Wat.assemble("""
                (module
                  (import "env" "log" (func $log (param i32)))
                  (memory (export "memory") 1)
                  (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add)
                  (func (export "store") (param i32 i32) local.get 0 local.get 1 i32.store)
                  (func (export "callLog") (param i32) local.get 0 call $log)
                  (func (export "trap") unreachable)
                  (data (i32.const 16) "hello wasm"))""");
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", m(ModuleType.ES_MODULE, """
                import mod from './add.wasm';
                export default { async fetch() {
                  const logged = [];
                  const inst = await WebAssembly.instantiate(mod, { env: { log: (v) => logged.push(v) } });
                  const view = new Uint8Array(inst.exports.memory.buffer);
                  inst.exports.store(100, 0x01020304);
                  view[200] = 7;
                  inst.exports.callLog(42);
                  let trap; try { inst.exports.trap(); } catch (e) { trap = e.constructor.name + ': ' + e.message; }
                  let compile; try { await WebAssembly.compile(new Uint8Array(8)); } catch (e) { compile = e.name + ': ' + e.message; }
                  return Response.json({ add: inst.exports.add(2, 3), text: new TextDecoder().decode(view.subarray(16, 26)),
                    stored: [view[100], view[103]], logged, trap, compile, isModule: mod instanceof WebAssembly.Module });
                } };"""));
        files.put("add.wasm", new BundleModule(ModuleType.COMPILED_WASM, wasm));
        try (TestWorker w = engine.worker(bundle(files))) {
            assertThat(w.text("http://x.test/")).isEqualTo("{\"add\":5,\"text\":\"hello wasm\",\"stored\":[4,1],\"logged\":[42],"
                    + "\"trap\":\"RuntimeError: unreachable\",\"compile\":\"CompileError: WebAssembly.compile(): Wasm code generation "
                    + "disallowed by embedder\",\"isModule\":true}");
        }
    }

    @Test
    void anInvalidWasmModuleRefusesTheDeployment() {
        Map<String, BundleModule> files = new LinkedHashMap<>();
        files.put("index.js", m(ModuleType.ES_MODULE, "export default {};"));
        files.put("x.wasm", new BundleModule(ModuleType.COMPILED_WASM, new byte[] {0, 'a', 's', 'm', 9, 9}));
        assertThatThrownBy(() -> engine.load(bundle(files))).isInstanceOf(ScriptLoadException.class)
                .hasMessageContaining("module x.wasm is not valid WebAssembly");
    }
}
