package dev.cellgate.js.graal.host.html;

/**
 * A failure of the rewriter that user code sees as workerd shows it: a {@code TypeError} whose message
 * is {@code "Parser error: "} followed by this message (a bad selector, an ambiguous document).
 */
public final class RewriterException extends RuntimeException {
    public RewriterException(String message) {
        super(message, null, false, false);
    }
}
