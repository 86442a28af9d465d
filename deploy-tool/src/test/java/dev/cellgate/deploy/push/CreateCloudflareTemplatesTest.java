package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.deploy.RealNode;
import dev.cellgate.deploy.ToolRun;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 item 8: the projects {@code npm create cloudflare} generates for the templates that need
 * no network at run time (src/test/resources/c3: TypeScript, wrangler.jsonc with comments and
 * {@code $schema}, package.json, tsconfig, tests, no node_modules) are pushed exactly as they are,
 * one after the other, to one real node, and each answers as its template says it does.
 */
class CreateCloudflareTemplatesTest {
    private static final Path TEMPLATES = ToolRun.repoRoot().resolve("deploy-tool/src/test/resources/c3");

    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    /** A copy of template {@code name} under tmp: the push reads it where a user's checkout would be. */
    private Path project(String name) throws Exception {
        Path from = TEMPLATES.resolve(name);
        Path to = tmp.resolve("projects").resolve(name);
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }

    private String push(String bucket, String template) throws Exception {
        ToolRun r = ToolRun.run(Esbuilds.env(), "push", project(template).toString(), "--bucket", bucket, "--json");
        assertThat(r.code()).as("push of the %s template: %s", template, r).isZero();
        return r.json().getString("deployment");
    }

    private HttpResponse<String> get(String addr, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + addr + path)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** GETs {@code path} until {@code servedByNew} says the new deployment answered (the node switches within seconds), at most 60 s. */
    private HttpResponse<String> once(String addr, String path, Predicate<HttpResponse<String>> servedByNew) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        HttpResponse<String> r = get(addr, path);
        while (!servedByNew.test(r) && System.nanoTime() < end) {
            Thread.sleep(100);
            r = get(addr, path);
        }
        return r;
    }

    @Test
    void everyTemplateDeploysAsGeneratedAndAnswersAsItsTemplateSays() throws Exception {
        String bucket = "file://" + tmp.resolve("bucket");
        push(bucket, "hello-world");
        try (RealNode node = RealNode.start(tmp, bucket, "c3-n1")) {
            String addr = node.listening.getString("public");
            node.awaitEvent("deployment.loaded");
            HttpResponse<String> hello = once(addr, "/", r -> r.statusCode() == 200);
            assertThat(hello.body()).as(node.log()).isEqualTo("Hello World!");

            push(bucket, "hello-world-durable-object");
            HttpResponse<String> greeting = once(addr, "/", r -> !r.body().equals("Hello World!"));
            assertThat(greeting.statusCode()).as(greeting.body()).isEqualTo(200);
            assertThat(greeting.body()).as("the Durable Object's sayHello over RPC").isEqualTo("Hello, world!");

            push(bucket, "static-site");
            HttpResponse<String> site = once(addr, "/", r -> r.body().contains("<html"));
            assertThat(site.statusCode()).isEqualTo(200);
            assertThat(site.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
            assertThat(site.body()).contains("<h1 id=\"heading\">Hello, World!</h1>");
            assertThat(get(addr, "/missing").statusCode()).as("assets only: a miss is the assets' 404").isEqualTo(404);

            push(bucket, "hello-world-with-assets");
            assertThat(once(addr, "/message", r -> r.statusCode() == 200).body()).isEqualTo("Hello, World!");
            assertThat(get(addr, "/").body()).contains("fetch('/message')");
            assertThat(get(addr, "/random").body()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
            HttpResponse<String> nothing = get(addr, "/nothing");
            assertThat(List.of(nothing.statusCode(), nothing.body())).as("the Worker's own 404").containsExactly(404, "Not Found");

            push(bucket, "spa");
            HttpResponse<String> api = once(addr, "/api/", r -> r.body().startsWith("{"));
            assertThat(api.body()).isEqualTo("{\"name\":\"Cloudflare\",\"path\":\"/api/\"}");
            assertThat(api.headers().firstValue("content-type")).hasValue("application/json");
            HttpResponse<String> route = get(addr, "/settings/profile");
            assertThat(route.statusCode()).as("a client-side route gets the app's index.html").isEqualTo(200);
            assertThat(route.body()).contains("<div id=\"root\"></div>");
            assertThat(get(addr, "/assets/index-Bz3yq1Hk.js").body()).contains("getElementById(\"root\")");
        }
    }
}
