package dev.cellgate.gateway.launch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The child JVM's launcher watch: a launcher is gone only when the check could have seen it alive. */
class JitLauncherParentWatchTest {

    /** A process that has exited: isAlive() is false for it. */
    static ProcessHandle exitedProcess() throws Exception {
        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "java -version did not exit");
        return p.toHandle();
    }

    @Test
    void exitedLauncherIsGone() throws Exception {
        assertTrue(JitLauncher.parentGone(exitedProcess(), () -> true));
    }

    @Test
    void notAliveWhileNoFileCanBeOpenedIsNoEvidence() throws Exception {
        // What isAlive() answers for a live launcher when every file descriptor is in use.
        assertFalse(JitLauncher.parentGone(exitedProcess(), () -> false));
    }

    @Test
    void liveLauncherIsNotGone() {
        assertFalse(JitLauncher.parentGone(ProcessHandle.current(), () -> true));
    }

    @Test
    void thisProcessCanOpenFiles() {
        assertTrue(JitLauncher.canOpenFiles());
    }
}
