package dev.cellgate.gateway;

/** The product version from the jar manifest (or "dev" when run from classes). */
public final class Version {
    private Version() {
    }

    public static String text() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
