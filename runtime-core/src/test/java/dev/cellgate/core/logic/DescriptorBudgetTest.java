package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class DescriptorBudgetTest {
    @Test
    void anUnlimitedNodeIsCappedByItsDescriptors() {
        // 20,000 descriptors (this machine's limit): 1,024 kept aside, 3 per cell.
        assertThat(DescriptorBudget.decide(20_000, OptionalInt.empty()))
                .isEqualTo(new DescriptorBudget.Capped(6_325, 20_000));
    }

    @Test
    void aConfiguredLimitThatFitsIsKept() {
        assertThat(DescriptorBudget.decide(524_288, OptionalInt.of(50_000)))
                .isEqualTo(new DescriptorBudget.Fits(OptionalInt.of(50_000)));
        assertThat(DescriptorBudget.decide(20_000, OptionalInt.of(6_325)))
                .isEqualTo(new DescriptorBudget.Fits(OptionalInt.of(6_325)));
    }

    @Test
    void aConfiguredLimitBeyondTheDescriptorsIsRefused() {
        assertThat(DescriptorBudget.decide(20_000, OptionalInt.of(6_326)))
                .isEqualTo(new DescriptorBudget.TooHigh(6_326, 20_002, 20_000));
    }

    @Test
    void anUnknownLimitCapsNothing() {
        assertThat(DescriptorBudget.decide(-1, OptionalInt.empty())).isEqualTo(new DescriptorBudget.Fits(OptionalInt.empty()));
        assertThat(DescriptorBudget.decide(0, OptionalInt.of(7))).isEqualTo(new DescriptorBudget.Fits(OptionalInt.of(7)));
    }

    @Test
    void aTinyLimitStillAllowsOneCell() {
        assertThat(DescriptorBudget.decide(100, OptionalInt.empty())).isEqualTo(new DescriptorBudget.Capped(1, 100));
    }
}
