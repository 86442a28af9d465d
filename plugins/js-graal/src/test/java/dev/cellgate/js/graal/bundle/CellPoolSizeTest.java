package dev.cellgate.js.graal.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@code cellgate.js.cellPool} is taken as written or refused by name: a value the pool cannot
 * honour must stop the engine from starting, never be clamped or replaced by the default.
 */
class CellPoolSizeTest {

    @Test
    void unsetMeansTheDefaultAndAValueInRangeIsTakenAsWritten() {
        assertThat(CellPool.sizeFrom(null)).isEqualTo(CellPool.DEFAULT_SIZE);
        assertThat(CellPool.sizeFrom("0")).isZero();
        assertThat(CellPool.sizeFrom(" 16 ")).isEqualTo(16);
        assertThat(CellPool.sizeFrom("5")).isEqualTo(5);
    }

    @Test
    void aValueOutsideTheRangeIsRefusedByName() {
        for (String bad : new String[] {"17", "-1", "1000"}) {
            assertThatThrownBy(() -> CellPool.sizeFrom(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cellgate.js.cellPool")
                    .hasMessageContaining("0 to 16")
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void aValueThatIsNotANumberIsRefusedNotReadAsTheDefault() {
        for (String bad : new String[] {"two", "", "2.5", "0x2"}) {
            assertThatThrownBy(() -> CellPool.sizeFrom(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cellgate.js.cellPool");
        }
    }

    @Test
    void anEngineAskedForAnImpossiblePoolDoesNotStart() {
        String before = System.getProperty(CellPool.SIZE_PROPERTY);
        System.setProperty(CellPool.SIZE_PROPERTY, "17");
        try {
            assertThatThrownBy(dev.cellgate.js.graal.support.TestEngine::new)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cellgate.js.cellPool must be an integer from 0 to 16");
        } finally {
            if (before == null) {
                System.clearProperty(CellPool.SIZE_PROPERTY);
            } else {
                System.setProperty(CellPool.SIZE_PROPERTY, before);
            }
        }
    }
}
