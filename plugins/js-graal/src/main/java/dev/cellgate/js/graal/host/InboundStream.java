package dev.cellgate.js.graal.host;

import dev.cellgate.js.graal.instance.JsEvent;
import dev.cellgate.js.graal.instance.JsInstance;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.Value;

/**
 * A body arriving from outside (a streamed request, an outbound fetch response, a stub response)
 * read by a JavaScript {@code ReadableStream}: each JS {@code pull} requests exactly one chunk from
 * the publisher, so a slow reader holds the producer back (back-pressure). Every signal is posted
 * to the instance's executor before it reaches JavaScript.
 */
public final class InboundStream implements Flow.Subscriber<ByteBuffer> {
    private final JsInstance instance;
    private final JsEvent event;
    private final Flow.Publisher<ByteBuffer> publisher;
    // Executor-thread state.
    private Flow.Subscription subscription;
    private boolean subscribed;
    private Value pending;
    private boolean ended;
    private Throwable failure;
    private boolean cancelled;

    public InboundStream(JsInstance instance, JsEvent event, Flow.Publisher<ByteBuffer> publisher) {
        this.instance = instance;
        this.event = event;
        this.publisher = publisher;
    }

    /** Called by JavaScript: deliver the next chunk, the end or an error to {@code callback(kind, value)}. */
    @HostAccess.Export
    public void pull(Value callback) {
        if (pending != null) {
            throw new IllegalStateException("a pull is already pending on this body");
        }
        pending = callback;
        if (failure != null || ended) {
            instance.post(event, this::settleTerminal);
            return;
        }
        if (!subscribed) {
            subscribed = true;
            publisher.subscribe(this);
        } else if (subscription != null) {
            subscription.request(1);
        }
    }

    /** Called by JavaScript when the stream is cancelled: stop the producer. */
    @HostAccess.Export
    public void cancel() {
        cancelled = true;
        pending = null;
        if (subscription != null) {
            subscription.cancel();
        } else if (!subscribed) {
            subscribed = true;
            publisher.subscribe(this);
        }
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        instance.post(event, () -> {
            subscription = s;
            if (cancelled) {
                s.cancel();
            } else if (pending != null) {
                s.request(1);
            }
        });
    }

    @Override
    public void onNext(ByteBuffer item) {
        byte[] copy = new byte[item.remaining()];
        item.get(copy);
        instance.post(event, () -> {
            Value cb = pending;
            pending = null;
            if (cb != null) {
                cb.executeVoid(0, ByteBuffer.wrap(copy));
            }
        });
    }

    @Override
    public void onError(Throwable t) {
        instance.post(event, () -> {
            failure = t;
            settleTerminal();
        });
    }

    @Override
    public void onComplete() {
        instance.post(event, () -> {
            ended = true;
            settleTerminal();
        });
    }

    private void settleTerminal() {
        Value cb = pending;
        if (cb == null) {
            return;
        }
        pending = null;
        if (failure != null) {
            cb.executeVoid(2, String.valueOf(failure.getMessage()));
        } else {
            cb.executeVoid(1, null);
        }
    }
}
