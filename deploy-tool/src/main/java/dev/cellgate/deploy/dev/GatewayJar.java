package dev.cellgate.deploy.dev;

import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The node {@code dev} starts: {@code CELLD_GATEWAY_JAR} when set (an error if it is wrong, not a
 * reason to look elsewhere), else the checkout's {@code gateway/target/gateway.jar} beside the
 * {@code deploy-tool/target} this code runs from (deploy-tool.jar or, in tests, target/classes).
 */
final class GatewayJar {
    static final String VARIABLE = "CELLD_GATEWAY_JAR";

    private GatewayJar() {
    }

    static Path locate(Env env) {
        String set = env.get(VARIABLE);
        if (set != null) {
            Path p = Path.of(set);
            if (!Files.isRegularFile(p)) {
                throw CommandException.failed(VARIABLE + "=" + set + " is not a file (it must name gateway.jar)", null);
            }
            return p;
        }
        Path checkout = besideCode();
        if (checkout != null && Files.isRegularFile(checkout)) {
            return checkout;
        }
        throw CommandException.failed("dev runs a node, and gateway.jar was not found" + (checkout == null ? "" : " at " + checkout)
                + ": build it (mvn -q package -DskipTests) or set " + VARIABLE, null);
    }

    private static Path besideCode() {
        try {
            Path code = Path.of(GatewayJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // deploy-tool/target/deploy-tool.jar or deploy-tool/target/classes: both sit in deploy-tool/target
            Path target = code.getParent();
            Path checkout = target == null || target.getParent() == null ? null : target.getParent().getParent();
            return checkout == null ? null : checkout.resolve("gateway/target/gateway.jar");
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return null;
        }
    }
}
