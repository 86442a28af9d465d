package dev.cellgate.core.logic.assets;

/** The uploaded files by pathname ({@code /dir/file.html}, decoded): the asset manifest as routing reads it. */
@FunctionalInterface
public interface AssetLookup {
    /** The file at exactly {@code pathname}, or null. */
    AssetEntry get(String pathname);
}
