package dev.cellgate.deploy.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Command-line arguments: positionals and {@code --name value} / {@code --flag} options, unknown options refused. */
public final class Args {
    private final List<String> positional = new ArrayList<>();
    private final Map<String, List<String>> options = new HashMap<>();

    public static Args parse(String[] argv, Set<String> valued, Set<String> flags) {
        Args a = new Args();
        for (int i = 0; i < argv.length; i++) {
            String s = argv[i];
            if (s.startsWith("--")) {
                String name = s.substring(2);
                String value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                if (flags.contains(name)) {
                    if (value != null) {
                        throw new IllegalArgumentException("--" + name + " takes no value");
                    }
                    a.options.computeIfAbsent(name, k -> new ArrayList<>()).add("true");
                } else if (valued.contains(name)) {
                    if (value == null) {
                        if (i + 1 >= argv.length) {
                            throw new IllegalArgumentException("--" + name + " needs a value");
                        }
                        value = argv[++i];
                    }
                    a.options.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
                } else {
                    throw new IllegalArgumentException("unknown option --" + name);
                }
            } else {
                a.positional.add(s);
            }
        }
        return a;
    }

    public List<String> positional() {
        return positional;
    }

    public String get(String name) {
        List<String> v = options.get(name);
        return v == null ? null : v.get(v.size() - 1);
    }

    public List<String> all(String name) {
        return options.getOrDefault(name, List.of());
    }

    public boolean flag(String name) {
        return options.containsKey(name);
    }
}
