package dev.cellgate.gateway.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.config.ConfigException;
import dev.cellgate.core.config.ConfigLoader;
import dev.cellgate.core.config.NodeConfig;
import dev.cellgate.core.config.Settings;
import dev.cellgate.gateway.node.ExitCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The packaging a fleet is run with (gateway/packaging/systemd, k8s/) is checked by the tools an operator
 * would use, run as processes: {@code systemd-analyze verify} for the unit, the offline Kubernetes
 * schema validator for the manifests. The stop window and the restart policy are checked against
 * the node's own default drain bound and exit codes, so a change there breaks this test rather
 * than a stop in production. Each deliberately broken fixture must be rejected, with its reason.
 */
class PackagingTest {
    private static final Path REPO = repoRoot();
    private static final Path UNIT = REPO.resolve("gateway/packaging/systemd/cellgate.service");
    private static final long AFTER_DRAIN_MS = UnitPolicy.AFTER_DRAIN_MS;

    @Test
    void theUnitPassesSystemdAnalyzeVerifyWithoutAWarning() throws Exception {
        Result r = run(REPO.resolve("gateway/packaging/systemd/verify-unit.sh").toString(), UNIT.toString());
        assertThat(r.exit).as(r.output).isZero();
        assertThat(r.output).contains("clean");
    }

    @Test
    void theUnitsStopTimeoutCoversTheDefaultDrainAndWhatFollowsIt() throws IOException {
        List<String> problems = UnitPolicy.problems(UNIT);
        assertThat(problems).isEmpty();
        Unit unit = Unit.read(UNIT);
        long drainDefault = Long.parseLong(Settings.SHUTDOWN_DRAIN_MS.defaultValue());
        // The arithmetic written in the unit and in docs/operations.md: 25 s + 3 s < 30 s.
        assertThat(unit.env("CELLD_SHUTDOWN_DRAIN_MS")).isEqualTo(String.valueOf(drainDefault));
        assertThat(unit.seconds("TimeoutStopSec") * 1000).isGreaterThanOrEqualTo(drainDefault + AFTER_DRAIN_MS);
    }

    @Test
    void theUnitRestartsOnEveryFailureButAConfigurationError() throws IOException {
        Unit unit = Unit.read(UNIT);
        assertThat(unit.values("RestartPreventExitStatus")).containsExactly(String.valueOf(ExitCodes.CONFIG));
        assertThat(unit.last("Restart")).isEqualTo("always");
        assertThat(unit.values("RestartPreventExitStatus")).doesNotContain(String.valueOf(ExitCodes.SELF_FENCED),
                String.valueOf(ExitCodes.STARTUP_FAILED));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "broken-misspelt-key.service | Unknown key 'TimeoutStopSecs'",
        "broken-bad-value.service | Failed to parse kill mode",
        "broken-stop-timeout.service | TimeoutStopSec=20 s is below",
        "broken-restart-on-config-error.service | RestartPreventExitStatus must name 2",
    })
    void aBrokenUnitIsRejected(String fixture, String reason) throws Exception {
        Path unit = REPO.resolve("gateway/packaging/systemd/fixtures").resolve(fixture);
        Result verify = run(REPO.resolve("gateway/packaging/systemd/verify-unit.sh").toString(), unit.toString());
        List<String> policy = UnitPolicy.problems(unit);
        String all = verify.output + String.join("\n", policy);
        assertThat(verify.exit != 0 || !policy.isEmpty()).as("%s was accepted:%n%s", fixture, all).isTrue();
        assertThat(all).contains(reason);
    }

    @Test
    void theManifestsValidateOfflineAgainstTheKubernetesSchemas() throws Exception {
        List<String> cmd = new ArrayList<>(List.of("node", validator().toString()));
        try (Stream<Path> files = Files.list(REPO.resolve("k8s"))) {
            files.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(p -> cmd.add(p.toString()));
        }
        Result r = run(cmd.toArray(String[]::new));
        assertThat(r.exit).as(r.output).isZero();
        assertThat(r.output).contains("StatefulSet/cellgate", "PodDisruptionBudget/cellgate", "Service/cellgate-peers",
                "Service/cellgate,", "ConfigMap/cellgate-config", "Secret/cellgate-credentials");
    }

    @Test
    void theManifestsDrainBoundIsTheNodesDefault() throws IOException {
        // fleet-rules.mjs assumes this default when the variable is unset; the StatefulSet states it.
        String sts = Files.readString(REPO.resolve("k8s/statefulset.yaml"));
        assertThat(sts).containsPattern("name: CELLD_SHUTDOWN_DRAIN_MS\\s+value: \"" + Settings.SHUTDOWN_DRAIN_MS.defaultValue() + "\"");
        assertThat(Files.readString(REPO.resolve("gateway/packaging/k8s-validate/fleet-rules.mjs")))
                .contains("const DEFAULT_DRAIN_MS = " + Settings.SHUTDOWN_DRAIN_MS.defaultValue() + ";")
                .contains("const AFTER_DRAIN_MS = " + AFTER_DRAIN_MS + ";");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "broken-schema.yaml | schema: data/spec/replicas must be integer",
        "broken-unknown-field.yaml | unknown field spec.template.spec.terminationGracePeriodSecond",
        "broken-liveness-on-health.yaml | livenessProbe must not use /__celld/health",
        "broken-stop-window.yaml | stop window too short",
        "broken-peers-service.yaml | set publishNotReadyAddresses: true",
    })
    void aBrokenManifestIsRejected(String fixture, String reason) throws Exception {
        Result r = run("node", validator().toString(), REPO.resolve("gateway/packaging/k8s-validate/fixtures").resolve(fixture).toString());
        assertThat(r.exit).as("%s was accepted:%n%s", fixture, r.output).isEqualTo(1);
        assertThat(r.output).contains("INVALID").contains(reason);
    }

    @Test
    void theNodeAcceptsEachPackagedConfigurationWithItsStopWindow(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        // What the node itself would say at start (exit 2 on any of these): unknown keys, wrong
        // types, and a drain bound not below the stop grace the packaging declares.
        Unit unit = Unit.read(UNIT);
        Map<String, String> unitEnv = Map.of("CELLD_SHUTDOWN_DRAIN_MS", unit.env("CELLD_SHUTDOWN_DRAIN_MS"),
                "CELLD_STOP_GRACE_MS", unit.env("CELLD_STOP_GRACE_MS"));
        NodeConfig systemd = load(REPO.resolve("gateway/packaging/systemd/node.json"), unitEnv);
        assertThat(systemd.shutdownDrainMs()).isEqualTo(25_000);

        String sts = Files.readString(REPO.resolve("k8s/statefulset.yaml"));
        Map<String, String> podEnv = Map.of("CELLD_SHUTDOWN_DRAIN_MS", envIn(sts, "CELLD_SHUTDOWN_DRAIN_MS"),
                "CELLD_STOP_GRACE_MS", envIn(sts, "CELLD_STOP_GRACE_MS"));
        Path configMapJson = tmp.resolve("configmap-node.json");
        Files.writeString(configMapJson, embeddedNodeJson(Files.readString(REPO.resolve("k8s/configmap.yaml"))));
        load(configMapJson, podEnv);

        load(REPO.resolve("gateway/packaging/oci/node.json"), Map.of());
    }

    private static NodeConfig load(Path nodeJson, Map<String, String> env) {
        try {
            return ConfigLoader.load(nodeJson, env);
        } catch (ConfigException e) {
            throw new AssertionError(nodeJson + " with " + env + " is refused by the node: " + e.getMessage(), e);
        }
    }

    /** The value of an env entry written as {@code - name: X} then {@code value: "..."}. */
    private static String envIn(String yaml, String name) {
        var m = java.util.regex.Pattern.compile("- name: " + name + "\\s+value: \"([^\"]*)\"").matcher(yaml);
        assertThat(m.find()).as("%s in the StatefulSet", name).isTrue();
        return m.group(1);
    }

    /** The block scalar under {@code node.json: |} in the ConfigMap, its indentation removed. */
    private static String embeddedNodeJson(String yaml) {
        List<String> lines = yaml.lines().toList();
        int start = lines.indexOf("  node.json: |");
        assertThat(start).as("node.json in the ConfigMap").isNotNegative();
        StringBuilder json = new StringBuilder();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (!line.startsWith("    ") && !line.isBlank()) {
                break;
            }
            json.append(line.length() >= 4 ? line.substring(4) : "").append('\n');
        }
        return json.toString();
    }

    private static Path validator() {
        return REPO.resolve("gateway/packaging/k8s-validate/validate-manifests.mjs");
    }

    record Result(int exit, String output) {
    }

    private static Result run(String... cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        String tools = System.getenv("CELLGATE_NPM_TOOLS");
        pb.environment().put("CELLGATE_NPM_TOOLS", tools != null && !tools.isBlank() ? tools : REPO.resolve(".ci/npm-tools").toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(Arrays.toString(cmd) + " did not finish within 60 s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** The repository root: surefire runs in the gateway module, an IDE perhaps at the root. */
    private static Path repoRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("gateway/packaging/systemd")) && Files.isDirectory(p.resolve("k8s"))) {
                return p;
            }
        }
        throw new IllegalStateException("no gateway/packaging/systemd and k8s/ above " + Path.of("").toAbsolutePath());
    }
}
