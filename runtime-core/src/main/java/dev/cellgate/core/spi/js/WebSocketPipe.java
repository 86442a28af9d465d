package dev.cellgate.core.spi.js;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Two connected {@link WebSocketEnd}s, in memory: a {@code WebSocketPair}. Frames sent on one end
 * reach the other end's receiver in order; frames sent before that end has a receiver wait in a
 * queue (as messages to a socket wait for {@code accept()}).
 */
public final class WebSocketPipe {
    private WebSocketPipe() {
    }

    /** A connected pair: {@code [0]} and {@code [1]} (Cloudflare's client and server). */
    public static WebSocketEnd[] pair() {
        End a = new End();
        End b = new End();
        a.peer = b;
        b.peer = a;
        return new WebSocketEnd[] {a, b};
    }

    private static final class End implements WebSocketEnd {
        private End peer;
        private Consumer<WsFrame> receiver;
        private ArrayDeque<WsFrame> waiting = new ArrayDeque<>();
        private boolean sentClose;
        private boolean gotClose;

        @Override
        public void send(WsFrame frame) {
            synchronized (this) {
                if (sentClose) {
                    return;
                }
                if (frame instanceof WsFrame.Close) {
                    sentClose = true;
                }
            }
            peer.arrive(frame);
        }

        /** Delivered under the lock so a queue flush and a new frame never overtake each other. */
        private synchronized void arrive(WsFrame frame) {
            if (gotClose) {
                return;
            }
            if (frame instanceof WsFrame.Close) {
                gotClose = true;
            }
            if (receiver == null) {
                waiting.add(frame);
            } else {
                receiver.accept(frame);
            }
        }

        @Override
        public synchronized void receive(Consumer<WsFrame> r) {
            if (receiver != null) {
                throw new IllegalStateException("this WebSocket end already has a receiver");
            }
            receiver = r;
            ArrayDeque<WsFrame> queued = waiting;
            waiting = null;
            for (WsFrame f : queued) {
                r.accept(f);
            }
        }

        @Override
        public synchronized boolean closed() {
            return sentClose || gotClose;
        }
    }
}
