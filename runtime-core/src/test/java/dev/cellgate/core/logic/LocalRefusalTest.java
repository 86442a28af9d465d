package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.LocalRefusal.Why;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class LocalRefusalTest {
    final AtomicInteger placementAsked = new AtomicInteger();

    Supplier<String> placement(String node) {
        return () -> {
            placementAsked.incrementAndGet();
            return node;
        };
    }

    @Test
    void aCellOwnedElsewhereGoesToItsOwnerWithoutAskingPlacement() {
        assertThat(LocalRefusal.target(Why.OWNED_ELSEWHERE, "n3", "n9", placement("n2"))).contains("n3");
        assertThat(placementAsked).hasValue(0);
    }

    @Test
    void aDrainingNodeFollowsTheOwnerAPeerNamedElsePlacement() {
        assertThat(LocalRefusal.target(Why.DRAINING, null, "n9", placement("n2"))).contains("n9");
        assertThat(placementAsked).as("a draining node reads no records: the hint is enough").hasValue(0);
        assertThat(LocalRefusal.target(Why.DRAINING, null, null, placement("n2"))).contains("n2");
        assertThat(LocalRefusal.target(Why.DRAINING, null, null, placement(null))).isEmpty();
    }

    @Test
    void aFullNodePlacesTheCellOnANodeWithCapacity() {
        assertThat(LocalRefusal.target(Why.FULL, null, "n9", placement("n2"))).as("a hint names an owner, not capacity").contains("n2");
        assertThat(LocalRefusal.target(Why.FULL, null, null, placement(null))).isEmpty();
    }
}
