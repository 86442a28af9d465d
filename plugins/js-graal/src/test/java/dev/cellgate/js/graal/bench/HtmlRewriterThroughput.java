package dev.cellgate.js.graal.bench;

import dev.cellgate.js.graal.host.html.HtmlRewriterHost;
import dev.cellgate.js.graal.support.Bundles;
import dev.cellgate.js.graal.support.TestEngine;
import dev.cellgate.js.graal.support.TestWorker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Measures HTMLRewriter on a generated 100 KB page, not a test (plugin README, "HTMLRewriter"):
 * the Java rewriter alone (CPU per page with no handler, and with an element handler on every
 * link answered in Java), then a Worker that rewrites the page's links and image tags through
 * JavaScript handlers (wall time per request, one at a time).
 *
 * <pre>java -cp ... dev.cellgate.js.graal.bench.HtmlRewriterThroughput [rounds]</pre>
 */
public final class HtmlRewriterThroughput {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        String page = page();
        byte[] bytes = page.getBytes(StandardCharsets.UTF_8);
        System.out.printf("page: %d bytes%n", bytes.length);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (boolean handler : new boolean[] {false, true}) {
            long[] ns = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                long t0 = cpu.getCurrentThreadCpuTime();
                rewriteInJava(bytes, handler);
                ns[r] = cpu.getCurrentThreadCpuTime() - t0;
            }
            Arrays.sort(ns);
            System.out.printf("java rewriter, %s: median %.2f ms CPU per page (%.0f MB/s), p90 %.2f ms%n",
                    handler ? "setAttribute on every a[href]" : "no handler", ns[rounds / 2] / 1e6, bytes.length / (ns[rounds / 2] / 1e9) / 1e6,
                    ns[rounds * 9 / 10] / 1e6);
        }
        try (TestEngine engine = new TestEngine();
             TestWorker w = engine.worker(Bundles.single("""
                     const PAGE = %s;
                     export default { async fetch() {
                       const chunks = []; for (let i = 0; i < PAGE.length; i += 16384) chunks.push(PAGE.slice(i, i + 16384));
                       const enc = new TextEncoder();
                       const body = new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(enc.encode(x)); c.close(); } });
                       return new HTMLRewriter()
                         .on('a[href]', { element(e) { e.setAttribute('href', 'https://cdn.test' + e.getAttribute('href')); } })
                         .on('img', { element(e) { e.setAttribute('loading', 'lazy'); } })
                         .transform(new Response(body, { headers: { 'content-type': 'text/html' } }));
                     } };""".formatted(io.vertx.core.json.Json.encode(page))))) {
            int n = Math.max(20, rounds / 4);
            long[] ms = new long[n];
            long[] cpuNs = new long[n];
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            int length = 0;
            for (int r = 0; r < n; r++) {
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                length = w.text("http://bench.test/").length();
                ms[r] = System.nanoTime() - t0;
                cpuNs[r] = os.getProcessCpuTime() - c0;
            }
            Arrays.sort(ms);
            Arrays.sort(cpuNs);
            System.out.printf("worker (JS handlers on %d links and %d images), output %d chars: median %.2f ms per page (process CPU %.2f ms),"
                    + " p90 %.2f ms%n", COUNT, COUNT, length, ms[n / 2] / 1e6, cpuNs[n / 2] / 1e6, ms[n * 9 / 10] / 1e6);
        }
    }

    static final int COUNT = 330;

    static String page() {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Bench &amp; more</title>"
                + "<style>body{font:14px sans-serif} .item > a{color:red}</style><script>var x = \"<div>\"; if (a < b && c > d) {}</script>"
                + "</head><body><!-- a comment -->\n");
        for (int i = 0; i < COUNT; i++) {
            b.append("<div class=\"item item-").append(i % 7).append("\" id=\"i").append(i).append("\" data-n='").append(i).append("'>\n  <h2>Item ")
                    .append(i).append("</h2>\n  <p>Lorem ipsum dolor sit amet, <b>consectetur</b> adipiscing elit &mdash; sed do eiusmod ")
                    .append(i).append(" &lt; tempor.</p>\n  <a href=\"/items/").append(i).append("\" class=link>Read more</a> <img src=\"/img/")
                    .append(i).append(".png\" alt=\"pic ").append(i).append("\"><br/>\n  <ul><li>one<li>two</ul>\n</div>\n");
        }
        return b.append("</body>\n</html>\n").toString();
    }

    static void rewriteInJava(byte[] page, boolean handler) {
        HtmlRewriterHost h = new HtmlRewriterHost();
        if (handler) {
            h.addSelector("a[href]", 1);
        }
        int off = 0;
        long out = 0;
        while (true) {
            int code = h.next();
            if (code == HtmlRewriterHost.NEED_INPUT) {
                out += h.takeBytes().length;
                if (off >= page.length) {
                    h.end();
                } else {
                    int n = Math.min(16384, page.length - off);
                    h.write(Arrays.copyOfRange(page, off, off + n));
                    off += n;
                }
            } else if (code == HtmlRewriterHost.DONE) {
                out += h.takeBytes().length;
                break;
            } else if (code == HtmlRewriterHost.ELEMENT) {
                h.setAttribute("href", "https://cdn.test" + h.getAttribute("href"));
            }
        }
        if (out < page.length) {
            throw new IllegalStateException("short output " + out);
        }
    }
}
