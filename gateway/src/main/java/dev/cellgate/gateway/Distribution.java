package dev.cellgate.gateway;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the node's distribution lives: the directory of gateway.jar, holding {@code lib/},
 * {@code lib/jvmci/} and {@code plugins/}. Run from classes (tests, IDE), it is the working directory.
 */
public record Distribution(Path home, boolean fromJar) {

    public static Distribution locate() {
        try {
            Path code = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(code) && code.toString().endsWith(".jar")) {
                return new Distribution(code.getParent(), true);
            }
        } catch (URISyntaxException | SecurityException e) {
            // fall through to the working directory
        }
        return new Distribution(Path.of("").toAbsolutePath(), false);
    }

    public Path defaultPluginsDir() {
        return home.resolve("plugins");
    }

    public Path jvmciDir() {
        return home.resolve("lib").resolve("jvmci");
    }
}
