package dev.cellgate.deploy.wrangler;

import java.util.ArrayList;
import java.util.List;

/**
 * What a config check found: refusals (every one is reported, in one go, so a project learns its
 * fate from one push) and notes (printed once each, nothing refused).
 */
public final class Problems {
    /**
     * TEST ONLY, the broken variant: stop at the first refusal, as push did before (a project then
     * needed one push per refused key). WranglerConfigTest proves the all-at-once test catches it.
     */
    static volatile boolean brokenStopAtFirstRefusal;

    private final List<String> refusals = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    public void refuse(String message) {
        refusals.add(message);
        if (brokenStopAtFirstRefusal) {
            throw new ConfigRefusedException("(broken variant)", refusals);
        }
    }

    public void note(String message) {
        if (!notes.contains(message)) {
            notes.add(message);
        }
    }

    /** Runs {@code check}; an {@link IllegalArgumentException} it throws becomes a refusal and the check goes on. */
    public <T> T attempt(java.util.function.Supplier<T> check) {
        try {
            return check.get();
        } catch (ConfigRefusedException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            refuse(e.getMessage());
            return null;
        }
    }

    public List<String> refusals() {
        return List.copyOf(refusals);
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** @throws ConfigRefusedException listing every refusal, when there is one */
    public void throwIfRefused(String where) {
        if (!refusals.isEmpty()) {
            throw new ConfigRefusedException(where, refusals);
        }
    }
}
