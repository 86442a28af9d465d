package dev.cellgate.deploy.push;

import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.deploy.cli.CommandException;
import dev.cellgate.deploy.cli.Env;
import dev.cellgate.deploy.cli.ToolPlugins;
import dev.cellgate.deploy.progress.Progress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The two steps of a push, shared by {@code push} and {@code dev} so that both deploy a project
 * exactly the same way: {@link #check} reads, bundles and loads it in GraalJS without touching the
 * bucket; {@link #publish} checks the Worker's secrets and writes blobs, manifest and current.
 */
public final class Push {
    private Push() {
    }

    /** A bundle that passed every check, with the classes its main module exports. */
    public record Checked(Bundle bundle, Set<String> exported) {
    }

    /** What a publish wrote: the publisher's result and the secrets the deployment names. */
    public record Published(Publisher.Result result, Map<String, String> secrets) {
    }

    /**
     * Reads {@code target} (a project directory or a bundle file) as {@code push} does, then loads it in
     * the engine nodes run. Refusals are {@link CommandException}s naming what is wrong.
     */
    public static Checked check(Path target, Path configFile, String name, String environment, java.util.List<String> pluginJars,
                                Env env, ToolPlugins plugins, Consumer<String> note) {
        Bundle bundle = read(target, configFile, name, environment, pluginJars, env, note);
        note.accept("checking " + bundle.name() + " (" + bundle.origin() + ") in GraalJS");
        return new Checked(bundle, LoadCheck.check(bundle, plugins, env));
    }

    /**
     * The first half of {@link #check}: config, build, bundling and module checks, without the load in
     * GraalJS. {@code dev} stops here, because its node loads every deployment in that same engine
     * anyway and keeps serving the previous one when the load fails (its error is printed), and
     * a second engine in the tool would cost most of the one second a reload may take.
     */
    public static Bundle read(Path target, Path configFile, String name, String environment, java.util.List<String> pluginJars,
                              Env env, Consumer<String> note) {
        return BundleReader.read(target, configFile, name, environment, env, note).withPlugins(PluginJars.read(pluginJars));
    }

    /** Checks the Worker's secrets in {@code store}, then uploads and makes the bundle current. */
    public static Published publish(BucketStore store, Bundle bundle, Progress progress) {
        Map<String, String> secrets;
        try {
            // before anything is uploaded: secrets.required all set, no secret named like a binding
            secrets = PushSecrets.inForce(store, bundle);
        } catch (CommandException e) {
            throw e;
        } catch (RuntimeException e) {
            throw CommandException.failed("cannot read the secrets of " + bundle.name() + " in " + store.url() + ": " + rootMessage(e), e);
        }
        try {
            return new Published(new Publisher(store, progress).publish(bundle, secrets), secrets);
        } catch (CommandException e) {
            throw e;
        } catch (RuntimeException e) {
            throw CommandException.failed("push to " + store.url() + " failed: " + rootMessage(e)
                    + " (nothing was made current; blobs already uploaded are reused by the next push)", e);
        }
    }

    static String rootMessage(Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && (c instanceof java.util.concurrent.CompletionException || c.getMessage() == null)) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.toString() : c.getMessage();
    }
}
