package dev.cellgate.gateway.trace;

/**
 * A span some request or call holds open: ended once with what happened. When tracing is off
 * every span is {@link #NONE}, which does nothing.
 */
public interface OpenSpan {
    /**
     * Ends the span.
     *
     * @param status the HTTP status answered (0: none, the exchange broke off)
     * @param error  the failure, or null
     */
    void end(int status, Throwable error);

    /** The W3C {@code traceparent} naming this span as the next hop's parent (null: tracing is off). */
    String traceparent();

    OpenSpan NONE = new OpenSpan() {
        @Override
        public void end(int status, Throwable error) {
        }

        @Override
        public String traceparent() {
            return null;
        }
    };
}
