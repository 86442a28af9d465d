package dev.cellgate.js.graal.bench;

import com.dylibso.chicory.compiler.MachineFactoryCompiler;
import com.dylibso.chicory.runtime.ExportFunction;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.InterpreterMachine;
import com.dylibso.chicory.runtime.Machine;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import dev.cellgate.js.graal.host.wasm.LinearMemory;
import dev.cellgate.js.graal.support.Wat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Chicory's interpreter against its compiler (Wasm to JVM bytecode at load), on the memory
 * cellgate gives Wasm ({@link LinearMemory}): compile time of a module, then the time per call of
 * a recursive function (calls) and of a hashing loop over linear memory (loads). Run:
 * {@code java -cp <test class path> dev.cellgate.js.graal.bench.WasmModes [rounds]} (bench/wasm/run.sh).
 */
public final class WasmModes {
    private WasmModes() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        byte[] wasm = Wat.assemble(Files.readString(Path.of(args.length > 1 ? args[1] : "bench/wasm/work.wat")));
        System.out.printf("%-12s %12s %14s %16s%n", "mode", "load ms", "fib(25) ms", "fnv 1 MiB ms");
        for (String mode : new String[] {"interpreter", "compiler"}) {
            long t0 = System.nanoTime();
            WasmModule module = Parser.parse(wasm);
            Function<Instance, Machine> machines = mode.equals("compiler") ? MachineFactoryCompiler.compile(module) : InterpreterMachine::new;
            Instance inst = Instance.builder(module).withMachineFactory(machines).withMemoryFactory(LinearMemory::new).build();
            double loadMs = (System.nanoTime() - t0) / 1e6;
            ExportFunction fib = inst.export("fib");
            ExportFunction fnv = inst.export("fnv");
            double fibMs = best(rounds, () -> fib.apply(25));
            double fnvMs = best(rounds, () -> fnv.apply(1 << 20));
            System.out.printf("%-12s %12.1f %14.2f %16.2f%n", mode, loadMs, fibMs, fnvMs);
        }
    }

    /** The best of {@code rounds} timed calls, after as many untimed ones (JIT warm-up). */
    private static double best(int rounds, Runnable call) {
        for (int i = 0; i < rounds; i++) {
            call.run();
        }
        double best = Double.MAX_VALUE;
        for (int i = 0; i < rounds; i++) {
            long t = System.nanoTime();
            call.run();
            best = Math.min(best, (System.nanoTime() - t) / 1e6);
        }
        return best;
    }
}
