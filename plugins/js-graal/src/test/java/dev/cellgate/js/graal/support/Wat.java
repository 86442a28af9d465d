package dev.cellgate.js.graal.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * WebAssembly text to binary with wabt's {@code wat2wasm}, and C to WebAssembly with clang (Debian package {@code wabt}, installed by
 * {@code .ci/apt-tools.sh}), so the Wasm modules tests use are built from readable source. Without
 * it: a failure under {@code CI=true}, a skipped test otherwise.
 */
public final class Wat {
    public static final String MISSING = "wat2wasm is not installed: run .ci/apt-tools.sh (Debian package wabt)";

    private Wat() {
    }

    public static final String CLANG_MISSING = "clang and wasm-ld are not installed: run .ci/apt-tools.sh (Debian packages clang, lld)";

    public static boolean available() {
        return onPath("wat2wasm");
    }

    /** Whether clang can compile C to wasm32 here (clang and lld's wasm-ld). */
    public static boolean clangAvailable() {
        return onPath("clang") && onPath("wasm-ld");
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** C to a Wasm module: no libc, no entry point, exports as the source's export_name attributes say. */
    public static void compileC(Path in, Path out) throws IOException, InterruptedException {
        run(List.of("clang", "--target=wasm32", "-O2", "-nostdlib", "-Wl,--no-entry", "-o", out.toString(), in.toString()), in);
    }

    /** Skips (or fails on CI) when wat2wasm is missing. */
    public static void assume() {
        if (!available()) {
            if ("true".equals(System.getenv("CI"))) {
                fail(MISSING);
            }
            org.junit.jupiter.api.Assumptions.abort(MISSING);
        }
    }

    public static byte[] assemble(String wat) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("wat");
        try {
            Path in = dir.resolve("m.wat");
            Path out = dir.resolve("m.wasm");
            Files.writeString(in, wat);
            assembleFile(in, out);
            return Files.readAllBytes(out);
        } finally {
            try (var s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    public static void assembleFile(Path in, Path out) throws IOException, InterruptedException {
        run(List.of("wat2wasm", in.toString(), "-o", out.toString()), in);
    }

    private static void run(List<String> cmd, Path in) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(cmd.get(0) + " " + in + " failed: " + log);
        }
    }
}
