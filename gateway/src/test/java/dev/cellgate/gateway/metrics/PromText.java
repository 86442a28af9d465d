package dev.cellgate.gateway.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A parsed Prometheus text exposition, for assertions: every sample with its labels. */
public final class PromText {
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    /** One sample line. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples = new ArrayList<>();
    private final Map<String, String> types = new LinkedHashMap<>();

    public PromText(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] p = line.split(" ");
                types.put(p[2], p[3]);
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                int end = 0;
                while (l.find()) {
                    if (l.start() != end) {
                        throw new AssertionError("malformed labels in: " + line);
                    }
                    labels.put(l.group(1), l.group(2));
                    end = l.end();
                }
                if (end != m.group(2).length()) {
                    throw new AssertionError("malformed labels in: " + line);
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The TYPE line's type of a metric family, or null. */
    public String type(String family) {
        return types.get(family);
    }

    /** Samples of {@code name} whose labels include every given pair (k1, v1, k2, v2, ...). */
    public List<Sample> find(String name, String... labelPairs) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            if (s.name.equals(name) && matches(s.labels, labelPairs)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The value of the one matching sample; fails when there is none or several. */
    public double value(String name, String... labelPairs) {
        List<Sample> found = find(name, labelPairs);
        if (found.size() != 1) {
            throw new AssertionError("expected one sample " + name + " " + String.join(",", labelPairs) + ", found " + found);
        }
        return found.get(0).value;
    }

    private static boolean matches(Map<String, String> labels, String... pairs) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (!pairs[i + 1].equals(labels.get(pairs[i]))) {
                return false;
            }
        }
        return true;
    }
}
