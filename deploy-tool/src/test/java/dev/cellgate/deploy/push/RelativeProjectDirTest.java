package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.ToolRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy-tool push dc}, dc a project directory given relative to the working directory and
 * holding its own {@code node_modules/.bin/esbuild}: the project's esbuild must run (it used to be
 * started by its relative path from inside the project directory, where that path does not exist).
 */
class RelativeProjectDirTest {

    @Test
    void aRelativeProjectDirectoryWithItsOwnEsbuildBundles(@TempDir Path bucket) throws Exception {
        Esbuilds.assumeAvailable();
        // relative to the test's working directory (the deploy-tool module), as a user would type it
        Path dir = Files.createTempDirectory(Path.of("target"), "dc-");
        Path relative = Path.of("").toAbsolutePath().relativize(dir.toAbsolutePath());
        Fixtures.project(dir, Fixtures.CONFIG, Fixtures.WORKER);
        Path bin = Files.createDirectories(dir.resolve("node_modules/.bin")).resolve("esbuild");
        // the project's own esbuild: a wrapper that says it ran, then runs the real one
        Files.writeString(bin, "#!/bin/sh\necho project-esbuild-ran >&2\nexec '" + Esbuilds.binary().toAbsolutePath() + "' \"$@\"\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));

        ToolRun r = ToolRun.run("push", relative.toString(), "--bucket", Fixtures.bucketUrl(bucket), "--progress", "off");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.err()).contains("via the project's node_modules").doesNotContain("could not run");
    }
}
