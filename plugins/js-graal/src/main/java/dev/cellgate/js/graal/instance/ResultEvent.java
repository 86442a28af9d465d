package dev.cellgate.js.graal.instance;

import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * An event whose answer is bytes or nothing: an RPC call (the structured-clone result envelope),
 * an alarm, or a cell's construction. JavaScript answers with {@link #result}, {@link #done} or
 * {@link #fail}.
 */
public final class ResultEvent extends AnsweredEvent<byte[]> {

    public ResultEvent(JsInstance instance, String requestId, String label) {
        super(instance, requestId, label);
    }

    @HostAccess.Export
    public void result(Value buffer, int offset, int length) {
        byte[] b = new byte[length];
        buffer.readBuffer(offset, b, 0, length);
        answer(b);
    }

    @HostAccess.Export
    public void done() {
        answer(new byte[0]);
    }
}
