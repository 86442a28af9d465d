package dev.cellgate.deploy.cli;

/**
 * What {@code deploy-tool} exits with. Scripts branch on these, so they are part of the
 * interface (docs/deploy.md lists them): a refusal (3) never wrote anything, a conflict (4)
 * is safe to re-run, a failure (1) may have left unreferenced blobs but never a half-moved
 * {@code current}.
 */
public final class ExitCodes {
    /** Done. */
    public static final int OK = 0;
    /** The bucket, the network or the tool's own installation failed (e.g. the bucket is unreachable). */
    public static final int FAILED = 1;
    /** Bad command line: unknown command or option, missing value. */
    public static final int USAGE = 2;
    /** The input was refused by validation (config, bundle, JS load error, esbuild error); nothing was written. */
    public static final int REFUSED = 3;
    /** Another writer moved {@code deploy/current.json} in between, and retrying would not be what was asked. */
    public static final int CONFLICT = 4;
    /** {@code diagnose} ran and found at least one problem. */
    public static final int UNHEALTHY = 5;

    private ExitCodes() {
    }
}
