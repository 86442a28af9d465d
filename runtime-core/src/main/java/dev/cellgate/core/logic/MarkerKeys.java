package dev.cellgate.core.logic;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Parses {@code node-cells/<node>/<gen>/<scope>} markers (SPEC §4). The generation (the writer's
 * process session) is checked for shape but dropped: dead-node GC removes a dead node's markers of
 * every generation, so nothing downstream may depend on it.
 */
public final class MarkerKeys {
    /** Node ids and generations share the node-id alphabet ({@code CELLD_NODE}); sessions are hex. */
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]{1,128}");

    private MarkerKeys() {
    }

    /** A parsed marker: the node holds (or held) the cell. */
    public record Marker(String node, String scope) {
    }

    /**
     * @return the marker, or empty for anything that is not exactly
     *         {@code node-cells/<node id>/<generation>/<valid scope>}: a wrong prefix, a missing or extra
     *         segment, an empty, {@code .} or {@code ..} segment, characters outside the node-id alphabet,
     *         or a scope that is not {@code <Class>:<64 lowercase hex>}
     */
    public static Optional<Marker> parseMarkerKey(String key) {
        if (key == null || !key.startsWith(Keys.NODE_CELLS)) {
            return Optional.empty();
        }
        String[] parts = key.substring(Keys.NODE_CELLS.length()).split("/", -1);
        if (parts.length != 3 || !isSegment(parts[0]) || !isSegment(parts[1]) || !Scopes.isValid(parts[2])) {
            return Optional.empty();
        }
        return Optional.of(new Marker(parts[0], parts[2]));
    }

    private static boolean isSegment(String s) {
        return SEGMENT.matcher(s).matches() && !s.equals(".") && !s.equals("..");
    }
}
