package dev.cellgate.deploy.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {
    static ProgressMode decide(String flag, String env, boolean json, String tty, String term, String link) {
        return ProgressMode.decide(flag, env, json, tty, term, () -> link);
    }

    @Test
    void explicitChoicesWinThenJsonThenTheTerminalTest() {
        assertThat(decide("lines", "bar", false, "1", null, "/dev/pts/0")).isEqualTo(ProgressMode.LINES);
        assertThat(decide(null, "off", false, "1", null, "/dev/pts/0")).isEqualTo(ProgressMode.OFF);
        assertThat(decide("bar", null, true, "0", null, null)).as("--progress beats --json").isEqualTo(ProgressMode.BAR);
        assertThat(decide(null, null, true, "1", null, "/dev/pts/0")).isEqualTo(ProgressMode.OFF);
        assertThat(decide(null, null, false, "1", "dumb", "/dev/pts/0")).isEqualTo(ProgressMode.LINES);
        assertThat(decide(null, null, false, "1", "xterm", null)).isEqualTo(ProgressMode.BAR);
        assertThat(decide(null, null, false, "0", "xterm", "/dev/pts/3")).as("the wrapper's answer beats /proc").isEqualTo(ProgressMode.LINES);
        assertThat(decide(null, null, false, null, "xterm", "/dev/pts/3")).isEqualTo(ProgressMode.BAR);
        assertThat(decide(null, null, false, null, null, "/dev/tty1")).isEqualTo(ProgressMode.BAR);
        assertThat(decide(null, null, false, null, null, "pipe:[12345]")).isEqualTo(ProgressMode.LINES);
        assertThat(decide(null, null, false, null, null, "/tmp/log.txt")).isEqualTo(ProgressMode.LINES);
        assertThat(decide(null, null, false, null, null, null)).isEqualTo(ProgressMode.LINES);
        assertThatThrownBy(() -> decide(null, "fancy", false, null, null, null)).hasMessageContaining("CELLD_PROGRESS must be bar, lines or off");
    }

    @Test
    void underSurefireStderrIsNotATerminal() {
        assertThat(ProgressMode.stderrLink()).as("a redirected test JVM").doesNotStartWith("/dev/pts/");
    }

    @Test
    void theBarFillsByBytesAndNotesDoNotCorruptIt() {
        assertThat(BarProgress.render(0, 4, 0, 1000, "")).isEqualTo("[" + "-".repeat(30) + "] 0/4 blobs 0 B/1000 B");
        assertThat(BarProgress.render(1, 4, 500, 1000, "index.js")).startsWith("[" + "#".repeat(15) + "-".repeat(15) + "] 1/4 blobs")
                .endsWith(" index.js");
        assertThat(BarProgress.render(0, 0, 0, 0, "")).startsWith("[" + "#".repeat(30) + "]");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        BarProgress bar = new BarProgress(new PrintStream(buf, true, StandardCharsets.UTF_8));
        bar.begin(2, 2048);
        bar.advance("a-very-long-module-name.js", 1024, true);
        bar.note("retrying");
        bar.advance("b.js", 1024, false);
        bar.end();
        String s = buf.toString(StandardCharsets.UTF_8);
        assertThat(s).contains("\r[###############---------------] 1/2 blobs 1.0 KiB/2.0 KiB a-very-long-module-name.js");
        // the note starts on a cleared line and ends with its own newline, then the bar is redrawn
        assertThat(s).containsPattern("\r +\rretrying\n\r\\[#{15}");
        assertThat(s).endsWith("uploaded 1 of 2 blob(s) (1 already in the bucket), 2.0 KiB\n");
    }

    @Test
    void linesAreOnePerBlob() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        LineProgress p = new LineProgress(new PrintStream(buf, true, StandardCharsets.UTF_8));
        p.begin(2, 3 * 1024 * 1024);
        p.advance("a.js", 1024 * 1024, true);
        p.advance("b.jar", 2 * 1024 * 1024, false);
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo("uploading 2 blob(s), 3.0 MiB\n[1/2] uploaded a.js (1.0 MiB)\n"
                + "[2/2] exists   b.jar (2.0 MiB)\n");
    }
}
