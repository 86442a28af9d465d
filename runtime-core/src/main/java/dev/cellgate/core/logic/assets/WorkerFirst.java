package dev.cellgate.core.logic.assets;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code assets.run_worker_first}: {@code true} sends every request to the Worker first; a list of
 * route patterns sends the requests whose pathname matches one of them ({@code *} matches any
 * characters, slashes included; the whole pathname must match), except those matching a pattern
 * written with a leading {@code !}: a negative pattern always wins, whatever the order.
 */
public final class WorkerFirst {
    private final boolean all;
    private final List<Pattern> include = new ArrayList<>();
    private final List<Pattern> exclude = new ArrayList<>();

    public WorkerFirst(boolean all, List<String> routes) {
        this.all = all;
        for (String r : routes) {
            boolean negative = r.startsWith("!");
            String glob = negative ? r.substring(1) : r;
            if (!glob.startsWith("/")) {
                throw new IllegalArgumentException("run_worker_first route must begin with / or !/ (got " + r + ")");
            }
            (negative ? exclude : include).add(compile(glob));
        }
    }

    private static Pattern compile(String glob) {
        StringBuilder re = new StringBuilder();
        for (String part : glob.split("\\*", -1)) {
            if (!re.isEmpty()) {
                re.append(".*");
            }
            re.append(Pattern.quote(part));
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }

    /** Whether routes were given (Wrangler's array form): the requests they do not send to the Worker are the assets' alone. */
    public boolean routed() {
        return !include.isEmpty() || !exclude.isEmpty();
    }

    /** Whether the Worker, not the assets, answers a request for {@code pathname}. */
    public boolean workerFirst(String pathname) {
        if (all) {
            return true;
        }
        for (Pattern p : exclude) {
            if (p.matcher(pathname).matches()) {
                return false;
            }
        }
        for (Pattern p : include) {
            if (p.matcher(pathname).matches()) {
                return true;
            }
        }
        return false;
    }
}
