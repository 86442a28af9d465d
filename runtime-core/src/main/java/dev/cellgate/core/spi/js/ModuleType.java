package dev.cellgate.core.spi.js;

import java.util.Locale;

/**
 * How the engine loads one file of a bundle: Wrangler's module rule types (the names a
 * {@code rules} entry uses) plus the source maps Wrangler uploads beside the modules when
 * {@code upload_source_maps} is set.
 */
public enum ModuleType {
    /** An ES module (JavaScript text). */
    ES_MODULE("ESModule"),
    /** A CommonJS module (JavaScript text run with {@code require}, {@code module}, {@code exports}). */
    COMMON_JS("CommonJS"),
    /** A text file whose default export is its UTF-8 content as a string. */
    TEXT("Text"),
    /** A binary file whose default export is an {@code ArrayBuffer} of its bytes. */
    DATA("Data"),
    /** A WebAssembly binary whose default export is a {@code WebAssembly.Module}. */
    COMPILED_WASM("CompiledWasm"),
    /** A source map (JSON) for the module named by the path without {@code .map}; not importable. */
    SOURCE_MAP("SourceMap");

    private final String wranglerName;

    ModuleType(String wranglerName) {
        this.wranglerName = wranglerName;
    }

    /** The name in Wrangler's {@code rules} (and in our manifest). */
    public String wranglerName() {
        return wranglerName;
    }

    /** Whether the file is JavaScript source the engine parses. */
    public boolean isJavaScript() {
        return this == ES_MODULE || this == COMMON_JS;
    }

    /** Whether the file must be UTF-8 text. */
    public boolean isText() {
        return isJavaScript() || this == TEXT || this == SOURCE_MAP;
    }

    /** By Wrangler's name; an unknown name is an error that lists the known ones. */
    public static ModuleType byWranglerName(String name) {
        for (ModuleType t : values()) {
            if (t.wranglerName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown module type '" + name + "' (known: ESModule, CommonJS, Text, Data, "
                + "CompiledWasm, SourceMap)");
    }

    @Override
    public String toString() {
        return wranglerName.toLowerCase(Locale.ROOT);
    }
}
