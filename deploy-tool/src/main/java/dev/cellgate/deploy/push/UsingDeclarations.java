package dev.cellgate.deploy.push;

import java.util.regex.Pattern;

/**
 * {@code using} and {@code await using} declarations (explicit resource management) parse on
 * workerd's V8 but not on GraalJS 25. A bundled project never reaches GraalJS with one: esbuild's
 * {@code --target=es2022} lowers them to calls of {@code [Symbol.dispose]()} and
 * {@code [Symbol.asyncDispose]()}, as Wrangler's esbuild does. A module pushed as it is (a bundle
 * file, {@code no_bundle}, an additional module) keeps them, and its load fails with a syntax error
 * that does not say why: this names the cause and the way out.
 */
final class UsingDeclarations {
    /** A {@code using} declaration as GraalJS prints the failing source line: {@code using name =}. */
    private static final Pattern DECLARATION = Pattern.compile("(^|[^\\w$.])(await\\s+)?using\\s+[\\p{L}_$][\\w$]*\\s*=",
            Pattern.MULTILINE);

    private UsingDeclarations() {
    }

    /** An explanation to append to a load failure, or "" when the failure is not a {@code using} declaration's. */
    static String explainLoadFailure(String message) {
        if (message == null || !message.contains("SyntaxError") || !DECLARATION.matcher(message).find()) {
            return "";
        }
        return "\nThe failing line holds a `using` declaration: `using` declarations parse on workerd, not on"
                + " the GraalJS engine of cellgate nodes. Let the push bundle the module (drop no_bundle, or push the project"
                + " directory rather than a bundle file): esbuild lowers `using` and `await using` to calls of"
                + " [Symbol.dispose]() and [Symbol.asyncDispose](), as Wrangler's bundling does.";
    }
}
