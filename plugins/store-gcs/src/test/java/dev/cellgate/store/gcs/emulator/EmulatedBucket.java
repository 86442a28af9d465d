package dev.cellgate.store.gcs.emulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The objects of one emulated bucket. Every write decides its precondition and replaces the
 * object in ONE atomic step of the map ({@code compute} on the key), which is exactly the
 * property GCS promises for {@code ifGenerationMatch} and the one the contract races check.
 */
final class EmulatedBucket {
    /** One stored object generation. */
    record StoredBlob(String name, byte[] data, long generation, String contentType, long createdMs) {
    }

    /** A failed precondition: nothing was written. */
    static final class PreconditionFailed extends Exception {
        PreconditionFailed(String message) {
            super(message, null, false, false);
        }
    }

    private final String name;
    private final ConcurrentSkipListMap<String, StoredBlob> objects = new ConcurrentSkipListMap<>();
    private final AtomicLong generations;
    private final boolean atomic;

    /** @param atomic false only for the negative control: the precondition is checked, then the write happens later */
    EmulatedBucket(String name, AtomicLong generations, boolean atomic) {
        this.name = name;
        this.generations = generations;
        this.atomic = atomic;
    }

    String name() {
        return name;
    }

    /**
     * Writes {@code data} under {@code object} when {@code ifGenerationMatch} holds: empty means
     * unconditional, 0 means "must not exist", any other value must equal the live generation.
     */
    StoredBlob write(String object, byte[] data, String contentType, OptionalLong ifGenerationMatch) throws PreconditionFailed {
        if (!atomic) {
            return checkThenWrite(object, data, contentType, ifGenerationMatch);
        }
        String[] refusal = new String[1];
        StoredBlob written = objects.compute(object, (k, live) -> {
            if (ifGenerationMatch.isPresent()) {
                long want = ifGenerationMatch.getAsLong();
                long have = live == null ? 0 : live.generation();
                if (want != have) {
                    refusal[0] = "ifGenerationMatch=" + want + " but the live generation is " + (live == null ? "none" : have);
                    return live;
                }
            }
            return new StoredBlob(k, data.clone(), generations.incrementAndGet(), contentType, System.currentTimeMillis());
        });
        if (refusal[0] != null) {
            throw new PreconditionFailed(refusal[0]);
        }
        return written;
    }

    /** The broken variant: check, a gap (a disk write, a round trip), then write. Racing writers all pass the check. */
    private StoredBlob checkThenWrite(String object, byte[] data, String contentType, OptionalLong ifGenerationMatch)
            throws PreconditionFailed {
        StoredBlob live = objects.get(object);
        long have = live == null ? 0 : live.generation();
        if (ifGenerationMatch.isPresent() && ifGenerationMatch.getAsLong() != have) {
            throw new PreconditionFailed("ifGenerationMatch=" + ifGenerationMatch.getAsLong() + " but the live generation is " + have);
        }
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        StoredBlob next = new StoredBlob(object, data.clone(), generations.incrementAndGet(), contentType, System.currentTimeMillis());
        objects.put(object, next);
        return next;
    }

    StoredBlob get(String object) {
        return objects.get(object);
    }

    /** Deletes the live object; false when there was none (or its generation did not match). */
    boolean delete(String object, OptionalLong generation) {
        if (generation.isEmpty()) {
            return objects.remove(object) != null;
        }
        StoredBlob live = objects.get(object);
        return live != null && live.generation() == generation.getAsLong() && objects.remove(object, live);
    }

    /** Names after {@code after} (exclusive; null for the start) that start with {@code prefix}, at most {@code max}. */
    List<StoredBlob> list(String prefix, String after, int max) {
        List<StoredBlob> out = new ArrayList<>();
        Map<String, StoredBlob> tail = after == null ? objects.tailMap(prefix, true) : objects.tailMap(after, false);
        for (StoredBlob b : tail.values()) {
            if (!b.name().startsWith(prefix)) {
                if (b.name().compareTo(prefix) > 0) {
                    break;
                }
                continue;
            }
            if (out.size() == max) {
                break;
            }
            out.add(b);
        }
        return out;
    }
}
