package dev.cellgate.replicator.wal.replica;

import dev.cellgate.core.spi.replication.CommitOutcomeUnknownException;
import dev.cellgate.core.spi.replication.OwnershipCheck;
import dev.cellgate.replicator.wal.bucket.DurableWrites;
import dev.cellgate.replicator.wal.format.LineageKeys;
import dev.cellgate.replicator.wal.format.SegmentCodec;
import dev.cellgate.replicator.wal.format.SegmentKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Group commit with the output gate.
 *
 * <p>At most one segment upload runs at a time; commits made meanwhile merge into the next
 * segment, which starts the moment the running one lands. So a commit waits for at most the rest
 * of the running upload plus its own, never for a timer. Uploads are strictly sequential because
 * a later segment landing while an earlier one failed would leave a gap that makes the cell
 * unrestorable.
 *
 * <p>After each upload lands, ownership is asked once ({@link OwnershipCheck#stillOwner()}); only
 * a "yes" completes that segment's commits. A "no", a failed check or a failed upload fails every
 * unacknowledged commit and every later one: the host resets the cell. Checks run in upload order,
 * so commits are acknowledged in order. Nothing is uploaded before the epoch's pin is durable.
 *
 * <p>A failure says what is known about each commit: one whose upload had started fails with
 * {@link CommitOutcomeUnknownException} (its segment may have landed, and a later owner that lists
 * after the landing restores it), one still waiting for its upload fails with the cause itself
 * (it never left the node).
 */
final class UploadPipeline {
    interface Listener {
        /** A segment is durable and ownership was confirmed after it landed. */
        void confirmed(CommitBatch batch, String key, int bytes);

        void failed(Throwable cause);
    }

    private final DurableWrites writes;
    /** Stamps each segment's key with the time its upload starts (point-in-time recovery reads it). */
    private final LongSupplier clock;
    private final LineageKeys keys;
    private final long epoch;
    private final long scopeTag;
    private final OwnershipCheck ownership;
    private final Listener listener;
    private final CompletableFuture<Void> pin;
    private final ArrayDeque<CommitBatch> unconfirmed = new ArrayDeque<>();
    private CompletableFuture<Void> checks = CompletableFuture.completedFuture(null);
    private final ArrayDeque<CommitBatch> waiting = new ArrayDeque<>(); // last one collects, unless sealed
    private boolean sealed;
    private boolean pinned;
    private boolean uploading;
    private Throwable broken;
    /**
     * What {@link #durable()} answers once broken, for the commits added before the break: "outcome
     * unknown" when the newest of them was in a segment already sent (it may have landed and a later
     * restore may include it), else {@link #broken} (it never left the node).
     */
    private Throwable durableFailure;
    /** A commit was added after the break: it never left the node, so durable() says plainly why. */
    private boolean addedAfterBreak;
    private long bytesUploaded;
    private long segmentsUploaded;
    /** BROKEN ON PURPOSE when true (only {@link #brokenAckBeforeDurableForTests}). */
    private final boolean acksBeforeDurable;

    UploadPipeline(DurableWrites writes, LineageKeys keys, long epoch, OwnershipCheck ownership, Listener listener,
                   CompletableFuture<Void> pin, LongSupplier clock) {
        this(writes, keys, epoch, ownership, listener, pin, clock, false);
    }

    /**
     * BROKEN ON PURPOSE, for the protocol simulator's broken variant only (package-private: no
     * configuration reaches it): {@link #durable()} answers at once, so the output gate acknowledges
     * a commit before its segment is uploaded and ownership confirmed.
     */
    static UploadPipeline brokenAckBeforeDurableForTests(DurableWrites writes, LineageKeys keys, long epoch,
                                                         OwnershipCheck ownership, Listener listener, CompletableFuture<Void> pin,
                                                         LongSupplier clock) {
        return new UploadPipeline(writes, keys, epoch, ownership, listener, pin, clock, true);
    }

    private UploadPipeline(DurableWrites writes, LineageKeys keys, long epoch, OwnershipCheck ownership, Listener listener,
                           CompletableFuture<Void> pin, LongSupplier clock, boolean acksBeforeDurable) {
        this.clock = clock;
        this.acksBeforeDurable = acksBeforeDurable;
        this.writes = writes;
        this.keys = keys;
        this.epoch = epoch;
        this.scopeTag = SegmentCodec.scopeTag(keys.scope());
        this.ownership = ownership;
        this.listener = listener;
        this.pin = pin;
        pin.whenComplete((v, err) -> {
            if (err != null) {
                fail(err);
                return;
            }
            CommitBatch next;
            synchronized (this) {
                pinned = true;
                next = takeNextLocked();
            }
            upload(next);
        });
    }

    /** Pages that were in a new database's file before its first transaction: shipped with that transaction. */
    synchronized void seed(int pageSize, int pages, SortedMap<Integer, byte[]> content, long post) {
        CommitBatch b = new CommitBatch(0, 0);
        b.add(0, pageSize, pages, 0, content, post);
        waiting.addLast(b);
    }

    /**
     * Ends the collecting segment at the last transaction added: later ones go to a new segment.
     * A snapshot's txid must be a segment boundary, or a restore starting at the snapshot could
     * find no segment starting right after it.
     */
    synchronized void seal() {
        if (!waiting.isEmpty() && waiting.peekLast().hasTransactions()) {
            sealed = true;
        }
    }

    /** Adds a committed transaction; returns the future of the segment that will carry it. */
    CompletableFuture<Void> add(long txid, int pageSize, int commitPages, int low, SortedMap<Integer, byte[]> pages,
                                long pre, int prePages, long post) {
        CommitBatch next;
        CompletableFuture<Void> f;
        synchronized (this) {
            if (broken != null) {
                addedAfterBreak = true;
                return CompletableFuture.failedFuture(broken);
            }
            if (waiting.isEmpty() || sealed) {
                waiting.addLast(new CommitBatch(pre, prePages));
                sealed = false;
            }
            CommitBatch collecting = waiting.peekLast();
            collecting.add(txid, pageSize, commitPages, low, pages, post);
            f = collecting.done;
            next = takeNextLocked();
        }
        upload(next);
        return f;
    }

    /** Completes when everything added so far is durable and confirmed (and the pin is durable). */
    synchronized CompletableFuture<Void> durable() {
        if (acksBeforeDurable) {
            return CompletableFuture.completedFuture(null);
        }
        if (broken != null) {
            // A gate that asks after the break must hear what the newest commit it waits for heard.
            return CompletableFuture.failedFuture(addedAfterBreak ? broken : durableFailure);
        }
        if (!waiting.isEmpty() && waiting.peekLast().hasTransactions()) {
            return waiting.peekLast().done;
        }
        if (!unconfirmed.isEmpty()) {
            return unconfirmed.peekLast().done;
        }
        return pinned ? CompletableFuture.completedFuture(null) : pin;
    }

    /** Nothing waits to be uploaded or confirmed, and nothing failed. */
    synchronized boolean idle() {
        return broken == null && unconfirmed.isEmpty() && waiting.stream().noneMatch(CommitBatch::hasTransactions);
    }

    synchronized Throwable broken() {
        return broken;
    }

    synchronized long bytesUploaded() {
        return bytesUploaded;
    }

    synchronized long segmentsUploaded() {
        return segmentsUploaded;
    }

    synchronized long pendingBytes() {
        long n = 0;
        for (CommitBatch b : waiting) {
            n += b.pageBytes();
        }
        for (CommitBatch b : unconfirmed) {
            n += b.pageBytes();
        }
        return n;
    }

    /** Fails every commit not yet acknowledged, and all later ones. */
    void fail(Throwable cause) {
        List<CommitBatch> sent = new ArrayList<>();
        List<CommitBatch> unsent = new ArrayList<>();
        synchronized (this) {
            sent.addAll(unconfirmed);
            unconfirmed.clear();
            unsent.addAll(waiting);
            waiting.clear();
            if (broken == null) {
                broken = cause;
                boolean newestUnsent = unsent.stream().anyMatch(CommitBatch::hasTransactions);
                durableFailure = newestUnsent || sent.isEmpty() ? cause : outcomeUnknown(sent.get(sent.size() - 1), cause);
            }
        }
        sent.forEach(b -> b.done.completeExceptionally(outcomeUnknown(b, cause)));
        unsent.forEach(b -> b.done.completeExceptionally(cause));
        listener.failed(cause);
    }

    /** A commit whose upload had started when {@code cause} broke the pipeline: it may be in the bucket. */
    private CommitOutcomeUnknownException outcomeUnknown(CommitBatch b, Throwable cause) {
        Throwable c = cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null ? cause.getCause() : cause;
        return new CommitOutcomeUnknownException("cell " + keys.scope() + ": outcome unknown: the commit of txids " + b.minTxid()
                + ".." + b.maxTxid() + " at epoch " + epoch + " may have been applied: its segment "
                + b.key()
                + " was sent to the bucket, then: " + (c.getMessage() == null ? c.toString() : c.getMessage())
                + " (a later restore of the cell includes it if the segment landed before the next owner listed)", c);
    }

    private CommitBatch takeNextLocked() {
        if (uploading || !pinned || broken != null || waiting.isEmpty() || !waiting.peekFirst().hasTransactions()) {
            return null;
        }
        CommitBatch b = waiting.pollFirst();
        // Named once: a re-sent upload must use the same create-only key.
        b.named(keys.segment(epoch, SegmentKind.L0, b.minTxid(), b.maxTxid(), clock.getAsLong()));
        uploading = true;
        unconfirmed.addLast(b);
        return b;
    }

    private void upload(CommitBatch b) {
        if (b == null) {
            return;
        }
        byte[] bytes;
        try {
            bytes = b.encode(SegmentKind.L0, scopeTag, epoch);
        } catch (RuntimeException e) {
            fail(e);
            return;
        }
        String key = b.key();
        writes.createNew(key, bytes).whenComplete((v, err) -> {
            if (err != null) {
                fail(err);
                return;
            }
            CommitBatch next;
            CompletableFuture<Void> check;
            synchronized (this) {
                uploading = false;
                bytesUploaded += bytes.length;
                segmentsUploaded++;
                next = takeNextLocked();
                // Confirmation runs inside the chain, so segment k is fully confirmed before k+1 is even checked.
                check = checks = checks.thenCompose(x -> askOwnership()).thenRun(() -> confirm(b, key, bytes.length));
            }
            upload(next);
            check.whenComplete((x, cerr) -> {
                if (cerr != null) {
                    fail(cerr);
                }
            });
        });
    }

    private CompletableFuture<Void> askOwnership() {
        CompletableFuture<Boolean> asked;
        try {
            asked = ownership.stillOwner();
        } catch (RuntimeException e) {
            asked = CompletableFuture.failedFuture(e);
        }
        return asked.<Void>handle((owner, err) -> {
            if (err != null) {
                Throwable c = err instanceof java.util.concurrent.CompletionException && err.getCause() != null ? err.getCause() : err;
                throw new IllegalStateException("the ownership check after the upload got no answer: "
                        + (c.getMessage() == null ? c.toString() : c.getMessage()), c);
            }
            if (!Boolean.TRUE.equals(owner)) {
                throw new NotOwnerException("the ownership check after the upload says cell " + keys.scope()
                        + " is no longer owned at epoch " + epoch + " (another node took it over)");
            }
            return null;
        });
    }

    private void confirm(CommitBatch b, String key, int bytes) {
        synchronized (this) {
            if (broken != null) {
                return;
            }
            unconfirmed.remove(b);
        }
        listener.confirmed(b, key, bytes); // first: background work it triggers is queued before anyone sees the ack
        b.done.complete(null);
    }
}
