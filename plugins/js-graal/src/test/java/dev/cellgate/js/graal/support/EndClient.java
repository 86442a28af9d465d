package dev.cellgate.js.graal.support;

import dev.cellgate.core.spi.js.WebSocketEnd;
import dev.cellgate.core.spi.js.WsFrame;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Plays the network client on the end a {@code 101} response handed to the host: what the Worker
 * or Durable Object sends arrives in a queue, and the test sends frames into the connection.
 */
public final class EndClient {
    private final WebSocketEnd end;
    private final BlockingQueue<WsFrame> received = new LinkedBlockingQueue<>();

    public EndClient(WebSocketEnd end) {
        this.end = end;
        end.receive(received::add);
    }

    public void send(String text) {
        end.send(new WsFrame.Text(text));
    }

    public void send(WsFrame frame) {
        end.send(frame);
    }

    /** The next frame, or an AssertionError after {@code seconds}. */
    public WsFrame next(int seconds) throws InterruptedException {
        WsFrame f = received.poll(seconds, TimeUnit.SECONDS);
        if (f == null) {
            throw new AssertionError("no WebSocket frame within " + seconds + " s");
        }
        return f;
    }

    /** The next frame, which must be text. */
    public String nextText() throws InterruptedException {
        WsFrame f = next(30);
        if (!(f instanceof WsFrame.Text t)) {
            throw new AssertionError("expected a text frame, got " + f);
        }
        return t.text();
    }

    /** A frame received within {@code ms}, or null. */
    public WsFrame poll(long ms) throws InterruptedException {
        return received.poll(ms, TimeUnit.MILLISECONDS);
    }
}
