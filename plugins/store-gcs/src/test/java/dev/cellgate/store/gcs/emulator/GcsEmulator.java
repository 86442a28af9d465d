package dev.cellgate.store.gcs.emulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cellgate.store.gcs.emulator.EmulatedBucket.PreconditionFailed;
import dev.cellgate.store.gcs.emulator.EmulatedBucket.StoredBlob;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TEST-SCOPE emulator of the part of the Google Cloud Storage JSON API that google-cloud-storage
 * uses for our operations: multipart and media uploads with {@code ifGenerationMatch}, object
 * metadata, media download (optionally pinned to a generation), listing with prefix and page token,
 * delete. Writes are atomic per key ({@link EmulatedBucket}); a failed precondition answers 412.
 *
 * <p>No GCS emulator that enforces preconditions is available from our registries, so this is the
 * one mock in the store tests. It refuses what it does not implement (unknown routes, parameters
 * that would change the meaning of a request) with 501/400 instead of ignoring them, so a client
 * change cannot pass the tests by accident.
 */
public final class GcsEmulator implements AutoCloseable {
    private static final Set<String> HARMLESS = Set.of("alt", "fields", "projection", "prettyPrint", "userProject",
            "quotaUser", "uploadType", "name", "ifGenerationMatch", "generation", "prefix", "maxResults", "pageToken");

    private final HttpServer server;
    private final ExecutorService threads;
    private final Map<String, EmulatedBucket> buckets = new ConcurrentHashMap<>();
    private final AtomicLong generations = new AtomicLong(System.currentTimeMillis() * 1000);
    private final AtomicLong requests = new AtomicLong();
    private final boolean atomic;
    private final java.util.concurrent.ConcurrentLinkedQueue<Integer> faults = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private GcsEmulator(HttpServer server, boolean atomic) {
        this.server = server;
        this.atomic = atomic;
        this.threads = Executors.newFixedThreadPool(32, r -> {
            Thread t = new Thread(r, "gcs-emulator");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", this::handle);
    }

    /** Starts an emulator on 127.0.0.1 at {@code port} (0: any free port). */
    public static GcsEmulator start(int port) throws IOException {
        return start(port, true);
    }

    /**
     * The NEGATIVE CONTROL: an emulator whose preconditions are checked, then applied later
     * (check-then-write), so racing conditional writes can all succeed. The probe must refuse it.
     */
    public static GcsEmulator startNonAtomic(int port) throws IOException {
        return start(port, false);
    }

    private static GcsEmulator start(int port, boolean atomic) throws IOException {
        GcsEmulator e = new GcsEmulator(HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64), atomic);
        e.server.start();
        return e;
    }

    /** The next requests answer these statuses (429, 503...) without doing anything, one each, in order. */
    public GcsEmulator injectFaults(Integer... statuses) {
        faults.addAll(List.of(statuses));
        return this;
    }

    /** The value for {@code StorageOptions.setHost} and the {@code CELLD_GCS_ENDPOINT} option. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public GcsEmulator createBucket(String name) {
        buckets.computeIfAbsent(name, n -> new EmulatedBucket(n, generations, atomic));
        return this;
    }

    /** The names of every object in bucket {@code name}, in order (what a test may check was written). */
    public List<String> objectNames(String name) {
        EmulatedBucket b = buckets.get(name);
        return b == null ? List.of() : b.list("", null, Integer.MAX_VALUE).stream().map(EmulatedBucket.StoredBlob::name).toList();
    }

    public long requests() {
        return requests.get();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    // ------------------------------------------------------------------ routing

    private void handle(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        try (ex) {
            Reply r;
            Integer fault = faults.poll();
            try {
                r = fault != null ? Reply.error(fault, "injected fault " + fault) : route(ex);
            } catch (BadRequest e) {
                r = Reply.error(e.status, e.getMessage());
            } catch (RuntimeException e) {
                r = Reply.error(500, "emulator failure: " + e);
            }
            r.send(ex);
        }
    }

    private Reply route(HttpExchange ex) throws IOException {
        String method = ex.getRequestMethod();
        String path = ex.getRequestURI().getPath();
        Map<String, String> q = query(ex.getRequestURI().getRawQuery());
        for (String p : q.keySet()) {
            if (!HARMLESS.contains(p)) {
                throw new BadRequest(400, "the GCS emulator does not implement query parameter '" + p + "'");
            }
        }
        if (path.startsWith("/upload/storage/v1/b/") && method.equals("POST")) {
            String bucket = path.substring("/upload/storage/v1/b/".length());
            if (!bucket.endsWith("/o")) {
                throw new BadRequest(404, "no upload route " + path);
            }
            return upload(ex, bucket(bucket.substring(0, bucket.length() - 2)), q);
        }
        String rest = path.startsWith("/download/storage/v1/b/") ? path.substring("/download".length()) : path;
        if (!rest.startsWith("/storage/v1/b/")) {
            throw new BadRequest(501, "the GCS emulator does not implement " + method + " " + path);
        }
        rest = rest.substring("/storage/v1/b/".length());
        int o = rest.indexOf("/o");
        if (o < 0) {
            throw new BadRequest(501, "the GCS emulator does not implement bucket operation " + method + " " + path);
        }
        EmulatedBucket b = bucket(rest.substring(0, o));
        String tail = rest.substring(o + 2);
        if (tail.isEmpty() && method.equals("GET")) {
            return list(b, q);
        }
        if (!tail.startsWith("/") || tail.length() == 1) {
            throw new BadRequest(501, "the GCS emulator does not implement " + method + " " + path);
        }
        String object = tail.substring(1);
        return switch (method) {
            case "GET" -> read(b, object, q);
            case "DELETE" -> delete(b, object, q);
            default -> throw new BadRequest(501, "the GCS emulator does not implement " + method + " on objects");
        };
    }

    private EmulatedBucket bucket(String name) {
        EmulatedBucket b = buckets.get(name);
        if (b == null) {
            throw new BadRequest(404, "The specified bucket does not exist: " + name);
        }
        return b;
    }

    // ------------------------------------------------------------------ operations

    private Reply upload(HttpExchange ex, EmulatedBucket b, Map<String, String> q) throws IOException {
        byte[] body = requestBody(ex);
        String type = q.get("uploadType");
        String name = q.get("name");
        byte[] data;
        String contentType;
        if ("multipart".equals(type)) {
            List<Multipart.Part> parts = Multipart.parse(body, Multipart.boundary(ex.getRequestHeaders().getFirst("Content-Type")));
            if (parts.size() != 2) {
                throw new BadRequest(400, "multipart upload needs 2 parts (metadata, media), got " + parts.size());
            }
            JsonObject meta = new JsonObject(new String(parts.get(0).body(), StandardCharsets.UTF_8));
            for (String field : meta.fieldNames()) {
                if (!Set.of("name", "bucket", "contentType", "generation", "crc32c", "md5Hash").contains(field)) {
                    throw new BadRequest(400, "the GCS emulator does not implement object metadata field '" + field + "'");
                }
            }
            name = meta.getString("name", name);
            data = parts.get(1).body();
            // Like GCS: a checksum the client declared must match the bytes that arrived.
            checkDigest("crc32c", meta.getString("crc32c"), crc32c(data));
            checkDigest("md5Hash", meta.getString("md5Hash"), md5(data));
            contentType = meta.getString("contentType", parts.get(1).contentType());
        } else if ("media".equals(type)) {
            data = body;
            contentType = ex.getRequestHeaders().getFirst("Content-Type");
        } else {
            throw new BadRequest(501, "the GCS emulator does not implement uploadType=" + type);
        }
        if (name == null || name.isEmpty()) {
            throw new BadRequest(400, "upload names no object");
        }
        try {
            StoredBlob s = b.write(name, data, contentType == null ? "application/octet-stream" : contentType,
                    longParam(q, "ifGenerationMatch"));
            return Reply.json(200, resource(b, s));
        } catch (PreconditionFailed e) {
            return Reply.error(412, "conditionNotMet: " + e.getMessage());
        }
    }

    private Reply read(EmulatedBucket b, String object, Map<String, String> q) {
        StoredBlob s = b.get(object);
        OptionalLong generation = longParam(q, "generation");
        OptionalLong ifMatch = longParam(q, "ifGenerationMatch");
        if (s == null || (generation.isPresent() && generation.getAsLong() != s.generation())) {
            return Reply.error(404, "No such object: " + b.name() + "/" + object);
        }
        if (ifMatch.isPresent() && ifMatch.getAsLong() != s.generation()) {
            return Reply.error(412, "conditionNotMet: generation is " + s.generation());
        }
        if ("media".equals(q.get("alt"))) {
            return Reply.media(s);
        }
        return Reply.json(200, resource(b, s));
    }

    private Reply delete(EmulatedBucket b, String object, Map<String, String> q) {
        return b.delete(object, longParam(q, "generation")) ? Reply.empty(204)
                : Reply.error(404, "No such object: " + b.name() + "/" + object);
    }

    private Reply list(EmulatedBucket b, Map<String, String> q) {
        int max = (int) longParam(q, "maxResults").orElse(1000);
        if (max < 1) {
            throw new BadRequest(400, "maxResults must be positive");
        }
        String after = q.get("pageToken") == null ? null
                : new String(Base64.getUrlDecoder().decode(q.get("pageToken")), StandardCharsets.UTF_8);
        String prefix = q.getOrDefault("prefix", "");
        List<StoredBlob> page = b.list(prefix, after, max + 1);
        JsonObject out = new JsonObject().put("kind", "storage#objects");
        JsonArray items = new JsonArray();
        for (int i = 0; i < Math.min(max, page.size()); i++) {
            items.add(resource(b, page.get(i)));
        }
        if (!items.isEmpty()) {
            out.put("items", items);
        }
        if (page.size() > max) {
            String last = page.get(max - 1).name();
            out.put("nextPageToken", Base64.getUrlEncoder().withoutPadding().encodeToString(last.getBytes(StandardCharsets.UTF_8)));
        }
        return Reply.json(200, out);
    }

    private static JsonObject resource(EmulatedBucket b, StoredBlob s) {
        String time = Instant.ofEpochMilli(s.createdMs()).toString();
        return new JsonObject()
                .put("kind", "storage#object")
                .put("id", b.name() + "/" + s.name() + "/" + s.generation())
                .put("name", s.name())
                .put("bucket", b.name())
                .put("generation", Long.toString(s.generation()))
                .put("metageneration", "1")
                .put("contentType", s.contentType())
                .put("size", Integer.toString(s.data().length))
                .put("timeCreated", time)
                .put("updated", time)
                .put("storageClass", "STANDARD")
                .put("crc32c", crc32c(s.data()))
                .put("md5Hash", md5(s.data()))
                .put("etag", "CL" + Long.toHexString(s.generation()));
    }

    // ------------------------------------------------------------------ helpers

    private static void checkDigest(String field, String declared, String actual) {
        if (declared != null && !declared.equals(actual)) {
            throw new BadRequest(400, field + " " + declared + " declared by the client does not match the uploaded bytes (" + actual + ")");
        }
    }

    static String crc32c(byte[] data) {
        java.util.zip.CRC32C c = new java.util.zip.CRC32C();
        c.update(data);
        return Base64.getEncoder().encodeToString(java.nio.ByteBuffer.allocate(4).putInt((int) c.getValue()).array());
    }

    static String md5(byte[] data) {
        try {
            return Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("MD5").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The request body, inflated when the client compressed it (google-http-client gzips uploads). */
    private static byte[] requestBody(HttpExchange ex) throws IOException {
        String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
        if (encoding == null || encoding.equalsIgnoreCase("identity")) {
            return ex.getRequestBody().readAllBytes();
        }
        if (encoding.equalsIgnoreCase("gzip")) {
            try (var in = new java.util.zip.GZIPInputStream(ex.getRequestBody())) {
                return in.readAllBytes();
            }
        }
        throw new BadRequest(400, "the GCS emulator does not implement Content-Encoding " + encoding);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return q;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            q.put(k, v);
        }
        return q;
    }

    private static OptionalLong longParam(Map<String, String> q, String name) {
        String v = q.get(name);
        if (v == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(v));
        } catch (NumberFormatException e) {
            throw new BadRequest(400, "invalid " + name + "=" + v);
        }
    }

    /** A request the emulator refuses, with its status. */
    private static final class BadRequest extends RuntimeException {
        final int status;

        BadRequest(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /** An HTTP answer. */
    private record Reply(int status, String contentType, byte[] body, Map<String, String> headers) {
        static Reply json(int status, JsonObject o) {
            return new Reply(status, "application/json; charset=UTF-8", o.encode().getBytes(StandardCharsets.UTF_8), Map.of());
        }

        static Reply error(int status, String message) {
            JsonObject e = new JsonObject().put("error", new JsonObject().put("code", status).put("message", message)
                    .put("errors", new JsonArray().add(new JsonObject().put("message", message)
                            .put("reason", status == 412 ? "conditionNotMet" : status == 404 ? "notFound" : "invalid"))));
            return json(status, e);
        }

        static Reply media(StoredBlob s) {
            return new Reply(200, s.contentType(), s.data(), Map.of("x-goog-generation", Long.toString(s.generation()),
                    "x-goog-metageneration", "1"));
        }

        static Reply empty(int status) {
            return new Reply(status, null, new byte[0], Map.of());
        }

        void send(HttpExchange ex) throws IOException {
            if (contentType != null) {
                ex.getResponseHeaders().add("Content-Type", contentType);
            }
            headers.forEach((k, v) -> ex.getResponseHeaders().add(k, v));
            ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                ex.getResponseBody().write(body);
            }
        }
    }
}
