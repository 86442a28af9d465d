package dev.cellgate.js.graal.support;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * WebAssembly text to binary with wabt's {@code wat2wasm} (Debian package {@code wabt}, installed by
 * {@code .ci/apt-tools.sh}), so the Wasm modules tests use are built from readable source. Without
 * it: a failure under {@code CI=true}, a skipped test otherwise.
 */
public final class Wat {
    public static final String MISSING = "wat2wasm is not installed: run .ci/apt-tools.sh (Debian package wabt)";

    private Wat() {
    }

    public static boolean available() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "wat2wasm"))) {
                return true;
            }
        }
        return false;
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
        Process p = new ProcessBuilder("wat2wasm", in.toString(), "-o", out.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("wat2wasm " + in + " failed: " + log);
        }
    }
}
