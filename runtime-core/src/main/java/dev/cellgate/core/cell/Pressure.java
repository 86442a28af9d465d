package dev.cellgate.core.cell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's resident memory, from {@code /proc/self/status} (Linux), else the JVM heap in use. */
final class Pressure {
    private Pressure() {
    }

    static long rssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String kb = line.substring(6).trim().split("\\s+")[0];
                    return Long.parseLong(kb) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        Runtime r = Runtime.getRuntime();
        return (r.totalMemory() - r.freeMemory()) / (1024 * 1024);
    }

    static boolean pressured(int maxRssMb) {
        return maxRssMb > 0 && rssMb() > maxRssMb;
    }
}
