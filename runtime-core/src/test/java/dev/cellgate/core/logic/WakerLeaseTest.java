package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.records.WakerLeaseRecord;
import org.junit.jupiter.api.Test;

class WakerLeaseTest {
    static final long NOW = 5_000;

    static WakerLease.Action decide(WakerLeaseRecord r) {
        return WakerLease.decide(r, false, "me", "s1", NOW, Liveness.withSkew(0));
    }

    @Test
    void decisions() {
        assertThat(decide(null)).isEqualTo(WakerLease.Action.CREATE);
        assertThat(decide(new WakerLeaseRecord("me", "s1", 0))).as("ours, even expired").isEqualTo(WakerLease.Action.RENEW);
        assertThat(decide(new WakerLeaseRecord("me", "s0", NOW + 1))).as("our earlier process, live").isEqualTo(WakerLease.Action.LEAVE);
        assertThat(decide(new WakerLeaseRecord("me", "s0", NOW))).isEqualTo(WakerLease.Action.TAKE);
        assertThat(decide(new WakerLeaseRecord("other", "x", NOW + 1))).isEqualTo(WakerLease.Action.LEAVE);
        assertThat(decide(new WakerLeaseRecord("other", "x", NOW))).as("expiry equal to now is expired").isEqualTo(WakerLease.Action.TAKE);
        assertThat(WakerLease.decide(null, true, "me", "s1", NOW, Liveness.withSkew(0))).as("malformed is taken over").isEqualTo(WakerLease.Action.TAKE);
    }

    @Test
    void ttlIsThreeTicks() {
        assertThat(WakerLease.ttlMs(60_000)).isEqualTo(180_000);
        assertThatThrownBy(() -> WakerLease.ttlMs(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anotherHoldersLeaseIsLeftUntilItsExpiryPlusTheMargin() {
        Liveness l = Liveness.withSkew(2_000);
        assertThat(WakerLease.decide(new WakerLeaseRecord("other", "x", NOW - 1_999), false, "me", "s1", NOW, l))
                .as("a holder whose clock is behind ours keeps its lease").isEqualTo(WakerLease.Action.LEAVE);
        assertThat(WakerLease.decide(new WakerLeaseRecord("other", "x", NOW - 2_000), false, "me", "s1", NOW, l))
                .isEqualTo(WakerLease.Action.TAKE);
        assertThat(WakerLease.decide(new WakerLeaseRecord("other", "x", 0), false, "me", "s1", NOW, l))
                .as("given up (expires_ms 0)").isEqualTo(WakerLease.Action.TAKE);
    }
}
