package dev.cellgate.core.logic;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code compatibility_flags} cellgate acts on (SPEC §14, §15). A flag changes runtime
 * behaviour on Cloudflare, so one the runtime does not read would be accepted and silently
 * ignored; instead deploy-tool refuses it at push and a node refuses a manifest naming it. Pure.
 *
 * <p>Two groups, each flag with its opposite (workerd gives every date-implied flag an off switch):
 * <ul>
 *   <li>{@link #RUNTIME}: read by the JavaScript runtime itself ({@code cellgate/runtime/dispatch.js},
 *       its {@code flags.includes('…')}; js-graal's CompatibilityFlagsAgreeTest keeps the two equal).</li>
 *   <li>{@link #NODE}: decided by {@link NodeCompat} (which Node modules and globals a Worker gets),
 *       including the per-module gates of {@link NodeCompat#GATED}.</li>
 * </ul>
 */
public final class CompatibilityFlags {
    /** A flag that turns a behaviour on and the one that turns it off. */
    public record Pair(String on, String off) {
    }

    /** The flags dispatch.js reads. */
    public static final List<Pair> RUNTIME = List.of(
            new Pair("delete_all_deletes_alarm", "delete_all_preserves_alarm"),
            new Pair("strict_compression_checks", "no_strict_compression_checks"),
            new Pair("enable_navigator_language", "disable_navigator_language"),
            new Pair("enable_ctx_exports", "disable_ctx_exports"),
            new Pair("expose_global_message_channel", "no_expose_global_message_channel"));

    /** The flags NodeCompat reads: the general ones, then each module gate. */
    public static final List<Pair> NODE = nodePairs();

    private static final Set<String> ACTED_ON = flagsOf(pairs());

    private CompatibilityFlags() {
    }

    private static List<Pair> nodePairs() {
        List<Pair> out = new ArrayList<>(List.of(
                new Pair("nodejs_compat", "no_nodejs_compat"),
                new Pair("nodejs_compat_v2", "no_nodejs_compat_v2"),
                new Pair("nodejs_als", "no_nodejs_als"),
                new Pair("nodejs_compat_populate_process_env", "nodejs_compat_do_not_populate_process_env"),
                new Pair("enable_nodejs_process_v2", "disable_nodejs_process_v2"),
                new Pair("enable_nodejs_global_timers", "no_nodejs_global_timers")));
        // several modules share one gate (http and https): one pair each, in a stable order
        NodeCompat.GATED.values().stream().map(g -> new Pair(g.enableFlag(), g.disableFlag())).distinct()
                .sorted(Comparator.comparing(Pair::on)).forEach(out::add);
        return List.copyOf(out);
    }

    private static Set<String> flagsOf(List<Pair> pairs) {
        Set<String> out = new LinkedHashSet<>();
        for (Pair p : pairs) {
            out.add(p.on());
            out.add(p.off());
        }
        return Set.copyOf(out);
    }

    /** Every pair, RUNTIME first. */
    public static List<Pair> pairs() {
        List<Pair> all = new ArrayList<>(RUNTIME);
        all.addAll(NODE);
        return List.copyOf(all);
    }

    /** Every flag cellgate acts on. */
    public static Set<String> actedOn() {
        return ACTED_ON;
    }

    public static Set<String> runtimeFlags() {
        return flagsOf(RUNTIME);
    }

    public static Set<String> nodeFlags() {
        return flagsOf(NODE);
    }

    public static boolean isActedOn(String flag) {
        return ACTED_ON.contains(flag);
    }

    /** The flags of {@code flags} cellgate does not act on, in the order given, each once. */
    public static List<String> notActedOn(List<String> flags) {
        Set<String> out = new LinkedHashSet<>();
        for (String f : flags) {
            if (!ACTED_ON.contains(f)) {
                out.add(f);
            }
        }
        return List.copyOf(out);
    }

    /** The refusal for one such flag, the same words at push and on a node. */
    public static String notActedOnMessage(String flag) {
        return "compatibility flag \"" + flag + "\" is not acted on by cellgate (it would be accepted and ignored); remove it,"
                + " or see docs/configuration.md for the flags cellgate implements";
    }
}
