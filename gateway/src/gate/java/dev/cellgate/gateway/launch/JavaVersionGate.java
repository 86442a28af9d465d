package dev.cellgate.gateway.launch;

import java.lang.reflect.InvocationTargetException;

/**
 * gateway.jar's entry point, compiled for Java 8 bytecode (src/gate, its own compiler run) so that
 * any JVM can load it: on a Java older than the node needs it prints one line naming the Java
 * version required and where to get it, and exits 2 (a configuration error), instead of an
 * {@code UnsupportedClassVersionError} stack trace. Otherwise it hands over to
 * {@code dev.cellgate.gateway.Main}. Nothing else may live here: this class cannot use the node's
 * classes or any Java API after 8.
 */
public final class JavaVersionGate {
    /** The oldest Java the node's classes run on (their bytecode level). */
    static final int NEEDS = 21;
    static final String MAIN = "dev.cellgate.gateway.Main";

    private JavaVersionGate() {
    }

    public static void main(String[] args) throws Throwable {
        int have = feature(System.getProperty("java.specification.version"));
        if (have < NEEDS) {
            System.err.println(refusal(System.getProperty("java.version"), System.getProperty("java.home")));
            System.exit(2);
        }
        try {
            Class.forName(MAIN).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** The feature release of a {@code java.specification.version}: "1.8" is 8, "17" is 17; unreadable is 0. */
    static int feature(String spec) {
        if (spec == null) {
            return 0;
        }
        String s = spec.startsWith("1.") ? spec.substring(2) : spec;
        int dot = s.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? s : s.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static String refusal(String version, String home) {
        return "cellgate: needs Java " + NEEDS + " or newer (Temurin 25.0.3 or newer for the JavaScript JIT); this is Java "
                + version + " at " + home + ". Install Temurin 25 and start it with $JAVA_HOME/bin/java -jar gateway.jar"
                + " or gateway/bin/cellgate (README, \"Requirements\").";
    }
}
