package dev.cellgate.js.graal.host.html;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stack of open elements as lol-html keeps it for selector matching — not the HTML tree builder's:
 * a start tag is pushed unless it is an HTML void element or a self-closing foreign one; an end tag
 * pops up to the nearest open element of its name (and is ignored if there is none). So
 * {@code <li>a<li>b</ul>} nests the second {@code li} in the first, and both end at {@code </ul>}.
 * Each level counts its children, in all and by tag name, for {@code :nth-child} and
 * {@code :nth-of-type}.
 */
final class OpenElements {
    static final Set<String> VOID = Set.of("area", "base", "basefont", "bgsound", "br", "col", "embed", "hr", "img", "input",
            "keygen", "link", "meta", "param", "source", "track", "wbr");

    /** What a selector can ask of an element. */
    record Info(String name, List<String[]> attributes, int index, int typeIndex) {
        String attribute(String lowerName) {
            for (String[] a : attributes) {
                if (a[0].equals(lowerName)) {
                    return a[1];
                }
            }
            return null;
        }
    }

    /** An open element and what the rewriter attached to it. */
    static final class Entry {
        final Info info;
        final int serial;
        /** Registrations whose selector matched this element and that have content (text/comment) handlers. */
        int[] contentRegs;
        private int children;
        private Map<String, Integer> typeCounts;
        // what happens at its end tag (set by the element's handlers)
        Mutations endMutations;
        String renamedTo;
        boolean removesContent;
        boolean endHandler;

        Entry(Info info, int serial) {
            this.info = info;
            this.serial = serial;
        }

        Mutations endMutations() {
            if (endMutations == null) {
                endMutations = new Mutations();
            }
            return endMutations;
        }
    }

    private final List<Entry> stack = new ArrayList<>();
    private int rootChildren;
    private final Map<String, Integer> rootTypeCounts = new HashMap<>();
    private Info[] path = new Info[16];
    private int nextSerial = 1;

    /** The next element's description, counted as a child of the current top. */
    Info child(String name, List<String[]> attributes) {
        int index;
        Map<String, Integer> types;
        if (stack.isEmpty()) {
            index = ++rootChildren;
            types = rootTypeCounts;
        } else {
            Entry top = stack.get(stack.size() - 1);
            index = ++top.children;
            if (top.typeCounts == null) {
                top.typeCounts = new HashMap<>();
            }
            types = top.typeCounts;
        }
        int typeIndex = types.merge(name, 1, Integer::sum);
        return new Info(name, attributes, index, typeIndex);
    }

    /** The open elements (outermost first) followed by {@code e}; e is at index {@link #depth()}. */
    Info[] pathWith(Info e) {
        int n = stack.size();
        if (path.length < n + 1) {
            path = Arrays.copyOf(path, Math.max(path.length * 2, n + 1));
        }
        for (int i = 0; i < n; i++) {
            path[i] = stack.get(i).info;
        }
        path[n] = e;
        return path;
    }

    int depth() {
        return stack.size();
    }

    Entry push(Info e) {
        Entry entry = new Entry(e, nextSerial++);
        stack.add(entry);
        return entry;
    }

    /** Pops up to the nearest open element named {@code name}; the popped entries innermost first, or an empty list. */
    List<Entry> popUpTo(String name) {
        for (int i = stack.size() - 1; i >= 0; i--) {
            if (stack.get(i).info.name().equals(name)) {
                List<Entry> popped = new ArrayList<>(stack.size() - i);
                for (int k = stack.size() - 1; k >= i; k--) {
                    popped.add(stack.remove(k));
                }
                return popped;
            }
        }
        return List.of();
    }
}
