package dev.cellgate.deploy.wrangler;

/**
 * How docs/configuration.md names a class and a scope. {@code main} prints the whole table, to
 * paste into the docs when {@link WranglerKeys} changes.
 */
final class DocsTable {
    private DocsTable() {
    }

    static String className(WranglerKeys.KeyClass c) {
        return switch (c) {
            case IMPLEMENTED -> "implemented";
            case METADATA -> "hosting metadata (note)";
            case REFUSED -> "refused";
        };
    }

    static String scope(WranglerKeys.Scope s) {
        return switch (s) {
            case TOP_ONLY -> "top level only";
            case INHERITED -> "inherited";
            case NOT_INHERITED -> "not inherited";
        };
    }

    public static void main(String[] args) {
        System.out.println("| key | class | in `env.<name>` | reason |");
        System.out.println("|---|---|---|---|");
        for (WranglerKeys.KeyClass c : WranglerKeys.KeyClass.values()) {
            for (WranglerKeys.Key k : WranglerKeys.all().values()) {
                if (k.keyClass() == c) {
                    System.out.println("| `" + k.name() + "` | " + className(c) + " | " + scope(k.scope()) + " | " + k.reason() + " |");
                }
            }
        }
    }
}
