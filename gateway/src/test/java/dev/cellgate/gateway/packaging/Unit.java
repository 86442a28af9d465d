package dev.cellgate.gateway.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The [Service] settings of a systemd unit file, as systemd reads them: a key may repeat, an empty value resets it. */
record Unit(Map<String, List<String>> service) {
    static Unit read(Path file) throws IOException {
        Map<String, List<String>> service = new LinkedHashMap<>();
        String section = "";
        for (String raw : Files.readAllLines(file)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[")) {
                section = line;
                continue;
            }
            int eq = line.indexOf('=');
            if (!section.equals("[Service]") || eq < 0) {
                continue;
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            List<String> values = service.computeIfAbsent(key, k -> new ArrayList<>());
            if (value.isEmpty()) {
                values.clear();
            } else {
                values.addAll(List.of(value.split("\\s+")));
            }
        }
        return new Unit(service);
    }

    List<String> values(String key) {
        return service.getOrDefault(key, List.of());
    }

    String last(String key) {
        List<String> v = values(key);
        return v.isEmpty() ? null : v.getLast();
    }

    /** A time setting in whole seconds ("30", "30s"); -1 when unset. */
    long seconds(String key) {
        String v = last(key);
        return v == null ? -1 : Long.parseLong(v.endsWith("s") ? v.substring(0, v.length() - 1) : v);
    }

    /** A variable set with Environment= (the last assignment wins, as in systemd); null when unset. */
    String env(String name) {
        String found = null;
        for (String assignment : values("Environment")) {
            if (assignment.startsWith(name + "=")) {
                found = assignment.substring(name.length() + 1);
            }
        }
        return found;
    }
}
