package dev.cellgate.replicator.wal;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh {@link Fixture} (bucket, cell directories) in a temporary directory for every test. */
abstract class WithFixture {
    @TempDir
    Path tmp;
    Fixture fx;

    @BeforeEach
    void openFixture() {
        fx = new Fixture(tmp);
    }

    @AfterEach
    void closeFixture() throws Exception {
        fx.close();
    }
}
