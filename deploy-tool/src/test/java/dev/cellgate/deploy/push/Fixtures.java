package dev.cellgate.deploy.push;

import dev.cellgate.core.plugin.BucketStores;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small Workers written into a test's temp directory. */
public final class Fixtures {
    private Fixtures() {
    }

    /** A Worker with one Durable Object class, Counter, and a module-level constant. */
    public static final String WORKER = """
            import { DurableObject } from "cloudflare:workers";
            export class Counter extends DurableObject {
              async fetch() { return new Response("counter"); }
            }
            export default { async fetch(req, env) { return new Response("hello " + env.GREETING); } };
            """;

    public static final String CONFIG = """
            {
              // comments and trailing commas, as Wrangler allows
              "name": "fixture",
              "main": "src/index.js",
              "compatibility_date": "2025-04-01",
              "vars": { "GREETING": "world", },
              "durable_objects": { "bindings": [ { "name": "COUNTER", "class_name": "Counter" } ] },
              "migrations": [ { "tag": "v1", "new_sqlite_classes": ["Counter"] } ],
            }
            """;

    public static Path write(Path dir, String relative, String text) throws IOException {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    /** A project directory: wrangler.jsonc + src/index.js. */
    public static Path project(Path dir, String config, String main) throws IOException {
        write(dir, "wrangler.jsonc", config);
        write(dir, "src/index.js", main);
        return dir;
    }

    public static String bucketUrl(Path dir) {
        return "file://" + dir.toAbsolutePath();
    }

    /** The fleet bucket at {@code url} opened as a node opens it, for reading back what the tool wrote. */
    public static BucketStore openBucket(String url) {
        return new BucketStores(null).open(url, StoreOptions.none());
    }
}
