package dev.cellgate.deploy.wrangler;

import java.util.List;

/** A Wrangler config refused: every reason, one per line. */
public final class ConfigRefusedException extends IllegalArgumentException {
    private final List<String> reasons;

    public ConfigRefusedException(String where, List<String> reasons) {
        super(reasons.size() == 1 ? where + ": " + reasons.get(0)
                : where + ": " + reasons.size() + " problems:\n  - " + String.join("\n  - ", reasons));
        this.reasons = List.copyOf(reasons);
    }

    public List<String> reasons() {
        return reasons;
    }
}
