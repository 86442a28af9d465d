package dev.cellgate.core.logic;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The rules of a Worker's secrets, without I/O: which names are secret names, how a stored value's
 * key reads back ({@link Keys#secret}), and which stored version of each secret is the one in force
 * (the newest: versions sort by the time they were put).
 *
 * <p>A name is a binding name as Cloudflare's tooling validates one: letters, digits and {@code _},
 * not starting with a digit, so {@code env.NAME} works as written and the name is one safe path
 * segment of a bucket key. At most {@link #MAX_NAME} characters (cellgate's bound, to keep keys short).
 */
public final class SecretNames {
    public static final int MAX_NAME = 256;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** {@code v-<yyyyMMddTHHmmssSSSZ>-<8 hex>}: sortable by the time of the put. */
    private static final Pattern VERSION = Pattern.compile("v-[0-9]{8}T[0-9]{9}Z-[0-9a-f]{8}");

    private SecretNames() {
    }

    /** Why {@code name} cannot name a secret, or null when it can. */
    public static String problem(String name) {
        if (name == null || name.isEmpty()) {
            return "a secret needs a name";
        }
        if (name.length() > MAX_NAME) {
            return "secret name " + name.substring(0, 32) + "… is longer than " + MAX_NAME + " characters";
        }
        if (!NAME.matcher(name).matches()) {
            return "secret name '" + name + "' is not a valid binding name: letters, digits and _ only, not starting with a digit";
        }
        return null;
    }

    /** Every problem of {@code names}, one line each (empty when all are valid). */
    public static List<String> problems(Collection<String> names) {
        return names.stream().map(SecretNames::problem).filter(p -> p != null).toList();
    }

    public static boolean isVersion(String v) {
        return v != null && VERSION.matcher(v).matches();
    }

    /** A stored value's name and version, read back from its key. */
    public record Stored(String name, String version) {
    }

    /** The secret a key of {@link Keys#secretsOf}{@code (worker)} holds, or null when the key is not one. */
    public static Stored parse(String worker, String key) {
        String prefix = Keys.secretsOf(worker);
        if (!key.startsWith(prefix) || !key.endsWith(".json")) {
            return null;
        }
        String rest = key.substring(prefix.length(), key.length() - ".json".length());
        int slash = rest.indexOf('/');
        if (slash < 0) {
            return null;
        }
        String name = rest.substring(0, slash);
        String version = rest.substring(slash + 1);
        return problem(name) == null && isVersion(version) ? new Stored(name, version) : null;
    }

    /** Name to the newest version, over the keys listed under the Worker's prefix (other keys are ignored). */
    public static Map<String, String> newest(String worker, Collection<String> keys) {
        Map<String, String> out = new TreeMap<>();
        for (String k : keys) {
            Stored s = parse(worker, k);
            if (s != null) {
                out.merge(s.name(), s.version(), (a, b) -> a.compareTo(b) >= 0 ? a : b);
            }
        }
        return out;
    }

    /** The required names that are not set, in the order required (a push names every one at once). */
    public static List<String> missing(Collection<String> required, Collection<String> set) {
        return required.stream().distinct().filter(n -> !set.contains(n)).toList();
    }

    /**
     * The secret names that another binding of the Worker (a var, a namespace, …) already uses:
     * on Cloudflare one name is one env entry, and a second binding of it is refused
     * ("binding name already in use"), never silently shadowed.
     */
    public static List<String> clashes(Collection<String> otherBindings, Collection<String> secrets) {
        return secrets.stream().distinct().filter(otherBindings::contains).sorted().toList();
    }
}
