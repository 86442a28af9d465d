package dev.cellgate.gateway.faults;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Just enough HTTP/1.1 to relay S3 traffic byte for byte. Heads are forwarded exactly as
 * received: the request is signed (SigV4 covers the Host header and more), so the proxy never
 * rewrites a header. Bodies are framed by Content-Length, chunked encoding, or the end of the
 * connection, and kept raw (a chunked body stays chunked).
 */
final class HttpWire {
    static final int MAX_HEAD_BYTES = 64 * 1024;
    private static final int MAX_LINE_BYTES = 8 * 1024;

    private HttpWire() {
    }

    /** A message head: its raw bytes, its start line, and its headers (lower-case names; the last one wins). */
    record Head(byte[] raw, String startLine, Map<String, String> headers) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        boolean chunked() {
            String te = header("transfer-encoding");
            return te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
        }

        long contentLength() {
            String cl = header("content-length");
            if (cl == null) {
                return -1;
            }
            try {
                return Long.parseLong(cl.trim());
            } catch (NumberFormatException e) {
                throw new IllegalStateException("malformed Content-Length '" + cl + "' in '" + startLine + "'");
            }
        }

        boolean wantsClose() {
            String c = header("connection");
            return c != null && c.toLowerCase(Locale.ROOT).contains("close");
        }

        /** The status of a response head. */
        int status() {
            String[] parts = startLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
                throw new IllegalStateException("not a response status line: '" + startLine + "'");
            }
            return Integer.parseInt(parts[1]);
        }
    }

    /** Reads one head; null when the stream ended cleanly before its first byte. */
    static Head readHead(InputStream in) throws IOException {
        ByteArrayOutputStream raw = new ByteArrayOutputStream(512);
        int state = 0; // how much of CR LF CR LF has been seen
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                if (raw.size() == 0) {
                    return null;
                }
                throw new EOFException("connection ended inside a message head");
            }
            raw.write(b);
            if (raw.size() > MAX_HEAD_BYTES) {
                throw new IOException("message head longer than " + MAX_HEAD_BYTES + " bytes");
            }
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1
                    : b == '\r' ? 1 : 0;
        }
        byte[] bytes = raw.toByteArray();
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        String[] lines = text.split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        return new Head(bytes, lines[0], headers);
    }

    /** The raw body of a request (none unless framed by Content-Length or chunked encoding). */
    static byte[] readRequestBody(InputStream in, Head head) throws IOException {
        if (head.chunked()) {
            return readChunked(in);
        }
        long n = head.contentLength();
        return n <= 0 ? new byte[0] : readExactly(in, n);
    }

    /** The raw body of a response to a request with {@code method}. */
    static byte[] readResponseBody(InputStream in, Head head, String method) throws IOException {
        int status = head.status();
        if (method.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304) {
            return new byte[0];
        }
        if (head.chunked()) {
            return readChunked(in);
        }
        long n = head.contentLength();
        if (n >= 0) {
            return readExactly(in, n);
        }
        return in.readAllBytes(); // delimited by the end of the connection
    }

    /** The decoded payload of a raw chunked body (for inspecting a request's bytes, not for relaying). */
    static byte[] dechunk(byte[] raw) throws IOException {
        InputStream in = new java.io.ByteArrayInputStream(raw);
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length);
        while (true) {
            String line = readLine(in, new ByteArrayOutputStream());
            int size = Integer.parseInt(line.split(";", 2)[0].trim(), 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(readExactly(in, size));
            readLine(in, new ByteArrayOutputStream());
        }
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        while (true) {
            String line = readLine(in, raw);
            int size;
            try {
                size = Integer.parseInt(line.split(";", 2)[0].trim(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed chunk size line '" + line + "'");
            }
            if (size == 0) {
                while (!readLine(in, raw).isEmpty()) {
                    // trailer fields: relayed as they are
                }
                return raw.toByteArray();
            }
            raw.write(readExactly(in, size));
            if (!readLine(in, raw).isEmpty()) {
                throw new IOException("chunk of " + size + " bytes not followed by CRLF");
            }
        }
    }

    /** Reads a CRLF-terminated line, appending its raw bytes (with the CRLF) to {@code raw}. */
    private static String readLine(InputStream in, ByteArrayOutputStream raw) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(32);
        int prev = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection ended inside a chunked body");
            }
            raw.write(b);
            if (prev == '\r' && b == '\n') {
                byte[] l = line.toByteArray();
                return new String(l, 0, l.length - 1, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
            if (line.size() > MAX_LINE_BYTES) {
                throw new IOException("line longer than " + MAX_LINE_BYTES + " bytes in a chunked body");
            }
            prev = b;
        }
    }

    private static byte[] readExactly(InputStream in, long n) throws IOException {
        if (n > Integer.MAX_VALUE - 16) {
            throw new IOException("body of " + n + " bytes is too large for this test proxy");
        }
        byte[] b = in.readNBytes((int) n);
        if (b.length != n) {
            throw new EOFException("connection ended after " + b.length + " of " + n + " body bytes");
        }
        return b;
    }
}
