package dev.cellgate.core.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Create-only and compare-and-swap stay atomic when the racers are separate JVM processes
 * sharing one bucket directory (several nodes on a laptop).
 */
class FileBucketStoreCrossProcessTest {
    @TempDir
    Path tmp;

    @Test
    void createRacesAcrossTwoProcessesHaveOneWinnerPerKey() throws Exception {
        int keys = 300;
        List<String> lines = runRacers("create", keys);
        Map<String, Integer> wins = new HashMap<>();
        for (String l : lines) {
            assertThat(l).doesNotStartWith("AMBIGUOUS");
            if (l.startsWith("WIN ")) {
                wins.merge(l.substring(4), 1, Integer::sum);
            }
        }
        assertThat(wins).hasSize(keys);
        assertThat(wins.values()).allMatch(c -> c == 1);
    }

    @Test
    void casCounterAcrossTwoProcessesLosesNoIncrement() throws Exception {
        Path root = tmp.resolve("bucket");
        new FileBucketStore("file://" + root, root, false).putIfAbsent("counter", "0".getBytes(StandardCharsets.UTF_8)).get();
        int per = 60;
        List<String> lines = runRacers("counter", per);
        int acked = 0;
        for (String l : lines) {
            assertThat(l).doesNotStartWith("AMBIGUOUS");
            if (l.startsWith("ACKED ")) {
                acked += Integer.parseInt(l.substring(6));
            }
        }
        assertThat(acked).isEqualTo(2 * 4 * per);
        var store = new FileBucketStore("file://" + root, root, false);
        assertThat(new String(store.get("counter").get().orElseThrow().bytes(), StandardCharsets.UTF_8))
                .isEqualTo(Integer.toString(acked));
    }

    private List<String> runRacers(String mode, int n) throws Exception {
        Path root = tmp.resolve("bucket");
        Files.createDirectories(root);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> procs = new ArrayList<>();
        List<BufferedReader> outs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    CrossProcessRacer.class.getName(), root.toString(), mode, Integer.toString(n))
                    .redirectErrorStream(true).start();
            procs.add(p);
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            outs.add(r);
            String first;
            while ((first = r.readLine()) != null && !first.equals("READY")) {
                System.out.println("racer: " + first);
            }
            assertThat(first).as("racer %d started", i).isEqualTo("READY");
        }
        Files.writeString(tmp.resolve("go"), "go");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String line;
            boolean done = false;
            while ((line = outs.get(i).readLine()) != null) {
                if (line.equals("DONE")) {
                    done = true;
                } else {
                    lines.add(line);
                }
            }
            assertThat(procs.get(i).waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(done).as("racer %d finished; output %s", i, lines).isTrue();
        }
        return lines;
    }
}
