package dev.cellgate.gateway.faults;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The evidence record of one qualification scenario: what ran, the counts, every check with its
 * verdict. Written as {@code <dir>/<scenario>.json} (dir: system property {@code qualify.out},
 * default {@code target/qualification}) whether the scenario passed or not; .ci/qualify.sh
 * collects these into docs/qualification.{json,md}. A scenario's test fails exactly when one of
 * its checks failed.
 */
public final class Evidence {
    private final String scenario;
    private final JsonObject counts = new JsonObject();
    private final JsonArray checks = new JsonArray();
    private final List<String> failed = new ArrayList<>();
    private final long startedMs = System.currentTimeMillis();
    private final String description;
    private boolean written;

    private Evidence(String scenario, String description) {
        this.scenario = scenario;
        this.description = description;
    }

    public static Evidence scenario(String name, String description) {
        return new Evidence(name, description);
    }

    public Evidence count(String name, Object value) {
        counts.put(name, value instanceof Map<?, ?> m ? new JsonObject(new java.util.LinkedHashMap<>(castMap(m))) : value);
        return this;
    }

    public Evidence check(String name, boolean ok, String detail) {
        checks.add(new JsonObject().put("check", name).put("ok", ok).put("detail", detail));
        if (!ok) {
            failed.add(name + ": " + detail);
        }
        return this;
    }

    /** A scenario body that may throw. */
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Runs a scenario so that it leaves evidence even when it breaks before its checks (a node that
     * would not start, a timeout): the failure becomes a failed check "the scenario ran to the end".
     */
    public void guard(Body body) throws Exception {
        try {
            body.run();
        } catch (Exception | AssertionError e) {
            if (!written) {
                check("the scenario ran to the end", false, e.getClass().getSimpleName() + ": "
                        + String.valueOf(e.getMessage()).lines().limit(3).reduce((a, b) -> a + " / " + b).orElse(""));
                try {
                    writeAndAssert();
                } catch (AssertionError expected) {
                    // reported below, with the original failure
                }
            }
            throw e;
        }
    }

    /** Writes the record; then fails the test when a check failed. */
    public void writeAndAssert() {
        written = true;
        JsonObject j = new JsonObject()
                .put("scenario", scenario)
                .put("description", description)
                .put("verdict", failed.isEmpty() ? "PASS" : "FAIL")
                .put("started_ms", startedMs)
                .put("duration_s", (System.currentTimeMillis() - startedMs) / 1000)
                .put("counts", counts)
                .put("checks", checks);
        Path dir = Path.of(System.getProperty("qualify.out", "target/qualification"));
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(scenario + ".json"), j.encodePrettily() + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write evidence of " + scenario, e);
        }
        System.out.println("evidence " + scenario + ": " + j.encode());
        if (!failed.isEmpty()) {
            throw new AssertionError(scenario + " failed: " + String.join("; ", failed));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }
}
