package dev.cellgate.gateway.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 26 item 2: {@code java -jar gateway.jar} on a Java older than the node needs prints one
 * line naming the Java required and where to get it, and exits 2 — not an
 * {@code UnsupportedClassVersionError}. Java 17 is Debian's default here (.ci/apt-tools.sh installs it).
 */
class JavaVersionGateIT {
    static final Path JAVA_17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
    static final Path JAR = Path.of("target/gateway.jar").toAbsolutePath();

    @Test
    void anOldJavaIsToldInOneLineWhichJavaTheNodeNeeds() throws Exception {
        assertThat(JAVA_17).as("Java 17 (.ci/apt-tools.sh installs openjdk-17-jre-headless)").isExecutable();
        Result r = run(JAVA_17.toString(), "-jar", JAR.toString());
        assertThat(r.code).as(r.err).isEqualTo(2);
        assertThat(r.err.lines().toList()).as(r.err).singleElement().asString()
                .startsWith("cellgate: needs Java 21 or newer")
                .contains("this is Java 17.")
                .contains("Temurin 25")
                .contains("README");
        assertThat(r.out).isEmpty();
    }

    @Test
    void theRightJavaPassesTheGateToTheNode() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Result r = run(java, "-jar", JAR.toString(), "--version");
        assertThat(r.code).as(r.err).isZero();
        assertThat(r.out).startsWith("cellgate ");
    }

    @Test
    void theSpecificationVersionIsReadAsAFeatureRelease() {
        assertThat(JavaVersionGate.feature("1.8")).isEqualTo(8);
        assertThat(JavaVersionGate.feature("17")).isEqualTo(17);
        assertThat(JavaVersionGate.feature("25")).isEqualTo(25);
        assertThat(JavaVersionGate.feature("21.0.1")).isEqualTo(21);
        assertThat(JavaVersionGate.feature("x")).isZero();
        assertThat(JavaVersionGate.feature(null)).isZero();
    }

    record Result(int code, String out, String err) {
    }

    static Result run(String... cmd) throws Exception {
        Path out = Files.createTempFile("gate", ".out");
        Path err = Files.createTempFile("gate", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("CELLD_") || k.equals("JAVA_TOOL_OPTIONS") || k.equals("JDK_JAVA_OPTIONS"));
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
