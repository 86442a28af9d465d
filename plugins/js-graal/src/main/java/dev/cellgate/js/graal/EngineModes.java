package dev.cellgate.js.graal;

import dev.cellgate.core.spi.js.EngineInfo;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.graalvm.polyglot.Engine;

/**
 * Tells whether the optimizing runtime runs, and when not, why: the fallback interpreter is 3.5x
 * to 25x slower, and it is selected silently on any version drift (ARCHITECTURE.md).
 */
final class EngineModes {
    private EngineModes() {
    }

    static EngineInfo describe(Engine engine) {
        String impl = engine.getImplementationName();
        String name = "GraalJS " + engine.getVersion();
        if (!impl.toLowerCase(java.util.Locale.ROOT).contains("interpreted")) {
            return new EngineInfo(name, "jit", impl);
        }
        return new EngineInfo(name, "interpreted", impl + ": " + whyInterpreted(engine.getVersion()));
    }

    static String whyInterpreted(String graalVersion) {
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        if (!args.contains("-XX:+EnableJVMCI")) {
            return "JVMCI is not enabled: start the JVM with -XX:+UnlockExperimentalVMOptions -XX:+EnableJVMCI"
                    + " and the Graal compiler jars " + graalVersion + " on --upgrade-module-path";
        }
        if (ModuleLayer.boot().findModule("jdk.graal.compiler").isEmpty()) {
            return "the Graal compiler module (jdk.graal.compiler) is not in the boot layer: put the compiler, truffle-compiler,"
                    + " word and collections jars " + graalVersion + " on --upgrade-module-path";
        }
        return "JVMCI and the compiler are present but Truffle chose the fallback runtime: check that the JDK ("
                + Runtime.version() + ") and the Graal jars (" + graalVersion + ") are the same update";
    }
}
