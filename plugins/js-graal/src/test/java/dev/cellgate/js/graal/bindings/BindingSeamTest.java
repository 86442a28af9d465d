package dev.cellgate.js.graal.bindings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.bindings.SecretTextProvider;
import dev.cellgate.core.spi.js.BindingCallException;
import dev.cellgate.core.spi.js.BindingMethod;
import dev.cellgate.core.spi.js.BindingProvider;
import dev.cellgate.core.spi.js.BindingRegistry;
import dev.cellgate.core.spi.js.EnvBinding;
import dev.cellgate.core.spi.js.InstanceHost;
import dev.cellgate.core.spi.js.ScriptBundle;
import dev.cellgate.core.spi.js.ScriptLoadException;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The binding seam end to end on the real engine: a binding reaches a Worker's and a Durable
 * Object's env through the provider of its type (secret_text as the real one, test_echo as a
 * stand-in for KV-like types with a JS wrapper, async host calls and bytes), and a type with no
 * provider refuses the deployment by name.
 */
class BindingSeamTest {

    private static ScriptBundle bundle(String source, List<EnvBinding> bindings, String date, List<String> flags) {
        return new ScriptBundle("d-seam", "seam", "index.js", Map.of("index.js", source), Map.of("PLAIN", "p"),
                Map.of("NS", "Box"), date, flags).withBindings(bindings);
    }

    private static final String DO = """
            export class Box {
              constructor(state, env) { this.env = env; }
              fetch() { return new Response(this.env.TOKEN + '|' + typeof this.env.ECHO); }
            }
            """;

    @Test
    void aSecretIsAStringOnTheEnvOfWorkersAndDurableObjects() throws Exception {
        String src = DO + """
                export default { async fetch(req, env) {
                  if (new URL(req.url).pathname === '/do') return env.NS.get(env.NS.idFromName('a')).fetch(req);
                  return new Response([typeof env.TOKEN, env.TOKEN, env.PLAIN, Object.keys(env).sort().join(',')].join('|'));
                } };
                """;
        try (TestEngine e = new TestEngine(BindingRegistry.of(new SecretTextProvider()));
             TestWorker w = e.worker(bundle(src, List.of(new EnvBinding("TOKEN", "secret_text", null, "s3cr3t")), "2025-01-01",
                     List.of()))) {
            assertThat(w.text("http://x/")).isEqualTo("string|s3cr3t|p|NS,PLAIN,TOKEN");
            assertThat(w.text("http://x/do")).isEqualTo("s3cr3t|undefined");
        }
    }

    @Test
    void underNodejsCompatASecretIsInProcessEnvAsOnWorkerd() throws Exception {
        String src = "import process from 'node:process';\n"
                + "export default { fetch(req, env) { return new Response(process.env.TOKEN + '|' + process.env.PLAIN); } };";
        try (TestEngine e = new TestEngine(BindingRegistry.of(new SecretTextProvider()));
             TestWorker w = e.worker(bundle(DO + src, List.of(new EnvBinding("TOKEN", "secret_text", null, "v")), "2025-06-01",
                     List.of("nodejs_compat")))) {
            assertThat(w.text("http://x/")).isEqualTo("v|p");
        }
    }

    @Test
    void aTypeWithoutAProviderRefusesTheDeploymentByName() {
        try (TestEngine e = new TestEngine(BindingRegistry.of(new SecretTextProvider()))) {
            ScriptBundle b = bundle(DO + "export default { fetch() { return new Response('x'); } };",
                    List.of(new EnvBinding("CACHE", "kv_namespace", new JsonObject().put("namespace_id", "n1"))), "2025-01-01", List.of());
            assertThatThrownBy(() -> e.load(b)).isInstanceOf(ScriptLoadException.class)
                    .hasMessageContaining("binding CACHE is of type kv_namespace, which is not implemented yet on this fleet")
                    .hasMessageContaining("[secret_text]");
        }
    }

    @Test
    void anEngineWithoutTheSecretProviderRefusesSecretsToo() {
        try (TestEngine e = new TestEngine(BindingRegistry.NONE)) {
            assertThatThrownBy(() -> e.load(bundle(DO + "export default {};",
                    List.of(new EnvBinding("TOKEN", "secret_text", null, "v")), "2025-01-01", List.of())))
                    .hasMessageContaining("binding TOKEN is of type secret_text, which is not implemented yet");
        }
    }

    /** A stand-in for a real binding's host object: async methods, bytes, an error class, and a method JS must not reach. */
    public static final class EchoHost {
        private final int instance;

        EchoHost(int instance) {
            this.instance = instance;
        }

        @BindingMethod
        public CompletionStage<String> echo(String text) {
            return CompletableFuture.supplyAsync(() -> "echo:" + text); // completes on another thread
        }

        @BindingMethod
        public CompletionStage<Object> fail(String jsName, String message) {
            return CompletableFuture.failedFuture(new BindingCallException(jsName, message));
        }

        @BindingMethod
        public CompletionStage<ByteBuffer> reverse(byte[] bytes) {
            byte[] out = new byte[bytes.length];
            for (int i = 0; i < bytes.length; i++) {
                out[i] = bytes[bytes.length - 1 - i];
            }
            return CompletableFuture.completedFuture(ByteBuffer.wrap(out));
        }

        @BindingMethod
        public int opened() {
            return instance;
        }

        public String hidden() {
            return "reachable";
        }
    }

    private static final class EchoProvider implements BindingProvider {
        final AtomicInteger opens = new AtomicInteger();
        /** Opens for Worker contexts (a Durable Object's context, pooled ones included, has a CellHost). */
        final AtomicInteger workerOpens = new AtomicInteger();

        @Override
        public String type() {
            return "test_echo";
        }

        @Override
        public void check(EnvBinding binding) {
            if (!binding.settings().containsKey("prefix")) {
                throw new IllegalArgumentException("needs a prefix");
            }
        }

        @Override
        public Object open(EnvBinding binding, InstanceHost host) {
            if (!(host instanceof dev.cellgate.core.spi.js.CellHost)) {
                workerOpens.incrementAndGet();
            }
            return new EchoHost(opens.incrementAndGet());
        }
    }

    @Test
    void aWrappedBindingCallsItsHostObjectAsynchronouslyWithBytesAndErrors() throws Exception {
        String src = DO + """
                export default { async fetch(req, env) {
                  const e = env.ECHO;
                  const out = [e.name, e.prefix, await e.echo('hi'), Array.from(await e.reverse(new Uint8Array([1, 2, 3]))).join('')];
                  try { await e.fail('TypeError', 'bad key'); } catch (x) { out.push(x.constructor.name + ':' + x.message); }
                  try { await e.fail('NoSuchError', 'plain'); } catch (x) { out.push(x.constructor.name + ':' + x.message); }
                  try { e.hidden(); out.push('hidden reached'); } catch (x) { out.push('hidden refused'); }
                  return new Response(out.join('|'));
                } };
                """;
        EchoProvider echo = new EchoProvider();
        try (TestEngine e = new TestEngine(BindingRegistry.of(echo));
             TestWorker w = e.worker(bundle(src, List.of(new EnvBinding("ECHO", "test_echo", new JsonObject().put("prefix", "p1"))),
                     "2025-01-01", List.of()))) {
            assertThat(w.text("http://x/")).isEqualTo("ECHO|p1|echo:hi|321|TypeError:bad key|Error:plain|hidden refused");
            // opened once per instance: the load check's context became this Worker (the deployment's
            // pooled Durable Object contexts open their own)
            assertThat(echo.workerOpens.get()).isEqualTo(1);
        }
    }

    @Test
    void aDurableObjectOpensItsOwnBindings() throws Exception {
        String src = """
                export class Box {
                  constructor(state, env) { this.env = env; }
                  fetch() { return new Response(String(this.env.ECHO.opened())); }
                }
                export default { async fetch(req, env) {
                  const cell = await env.NS.get(env.NS.idFromName('a')).fetch(req);
                  return new Response(env.ECHO.opened() + '|' + await cell.text());
                } };
                """;
        EchoProvider echo = new EchoProvider();
        try (TestEngine e = new TestEngine(BindingRegistry.of(echo));
             TestWorker w = e.worker(bundle(src, List.of(new EnvBinding("ECHO", "test_echo", new JsonObject().put("prefix", "p"))),
                     "2025-01-01", List.of()))) {
            // the Worker has the load check's binding; the object's context opened its own
            // (which number depends on when the deployment's pooled contexts were set up)
            String[] opened = w.text("http://x/").split("\\|");
            assertThat(opened[0]).isEqualTo("1");
            assertThat(Integer.parseInt(opened[1])).isGreaterThan(1);
        }
    }

    @Test
    void aProviderRefusesBadSettingsAtLoadNamingTheBinding() {
        try (TestEngine e = new TestEngine(BindingRegistry.of(new EchoProvider()))) {
            assertThatThrownBy(() -> e.load(bundle(DO + "export default {};", List.of(new EnvBinding("ECHO", "test_echo", null)),
                    "2025-01-01", List.of()))).hasMessageContaining("binding ECHO (test_echo): needs a prefix");
        }
    }
}
