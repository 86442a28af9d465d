package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cellgate.core.logic.QueueDelivery.Call;
import dev.cellgate.core.logic.QueueDelivery.Fate;
import dev.cellgate.core.logic.QueueDelivery.Kind;
import dev.cellgate.core.logic.QueueDelivery.Next;
import dev.cellgate.core.logic.QueueDelivery.Settings;
import org.junit.jupiter.api.Test;

class QueueDeliveryTest {
    static final Settings DEFAULTS = Settings.of(null, null, null, null, null, null);
    static final Settings DLQ = Settings.of(5L, 2L, 1L, 30L, 1L, "dead");
    static final long NOW = 1_000_000;

    @Test
    void defaultsAreCloudflares() {
        assertThat(DEFAULTS).isEqualTo(new Settings(10, 5, 3, 0, null));
    }

    @Test
    void limitsAreRefusedByName() {
        assertThatThrownBy(() -> Settings.of(101L, null, null, null, null, null)).hasMessageContaining("max_batch_size must be 1 to 100");
        assertThatThrownBy(() -> Settings.of(0L, null, null, null, null, null)).hasMessageContaining("max_batch_size");
        assertThatThrownBy(() -> Settings.of(null, 61L, null, null, null, null)).hasMessageContaining("max_batch_timeout must be 0 to 60");
        assertThatThrownBy(() -> Settings.of(null, null, 101L, null, null, null)).hasMessageContaining("max_retries must be 0 to 100");
        assertThatThrownBy(() -> Settings.of(null, null, null, 86_401L, null, null)).hasMessageContaining("retry_delay");
        assertThatThrownBy(() -> Settings.of(null, null, null, null, 2L, null)).hasMessageContaining("max_concurrency 2 is not supported");
        assertThat(Settings.of(null, null, null, null, 1L, null)).isEqualTo(DEFAULTS);
    }

    @Test
    void aFullBatchIsDueAtOnce() {
        assertThat(QueueDelivery.next(DEFAULTS, 10, NOW, -1, NOW)).isEqualTo(new Next(10, -1));
        assertThat(QueueDelivery.next(DEFAULTS, 250, NOW, -1, NOW)).isEqualTo(new Next(10, -1));
    }

    @Test
    void aPartialBatchWaitsForTheTimeoutOfItsOldestMessage() {
        assertThat(QueueDelivery.next(DEFAULTS, 3, NOW, -1, NOW + 4_999)).isEqualTo(new Next(0, NOW + 5_000));
        assertThat(QueueDelivery.next(DEFAULTS, 3, NOW, -1, NOW + 5_000)).isEqualTo(new Next(3, -1));
        assertThat(QueueDelivery.next(DEFAULTS, 3, NOW, NOW + 1_000, NOW)).as("a delayed message may fill the batch sooner")
                .isEqualTo(new Next(0, NOW + 1_000));
        assertThat(QueueDelivery.next(new Settings(10, 0, 3, 0, null), 1, NOW, -1, NOW)).isEqualTo(new Next(1, -1));
    }

    @Test
    void anEmptyQueueSleepsUntilItsFirstDelayedMessageOrForever() {
        assertThat(QueueDelivery.next(DEFAULTS, 0, 0, NOW + 60_000, NOW)).isEqualTo(new Next(0, NOW + 60_000));
        assertThat(QueueDelivery.next(DEFAULTS, 0, 0, -1, NOW)).isEqualTo(new Next(0, -1));
    }

    @Test
    void aReturningHandlerAcknowledgesWhatItDidNotRetry() {
        assertThat(fate(DEFAULTS, 1, Call.NONE, -1, Call.NONE, -1, false)).isEqualTo(new Fate(Kind.DELETE, -1));
        assertThat(fate(DEFAULTS, 1, Call.ACK, -1, Call.NONE, -1, false).kind()).isEqualTo(Kind.DELETE);
        assertThat(fate(DEFAULTS, 1, Call.RETRY, -1, Call.NONE, -1, false)).isEqualTo(new Fate(Kind.REDELIVER, NOW));
        assertThat(fate(DEFAULTS, 1, Call.NONE, -1, Call.RETRY, -1, false).kind()).isEqualTo(Kind.REDELIVER);
        assertThat(fate(DEFAULTS, 1, Call.ACK, -1, Call.RETRY, -1, false).kind()).as("retryAll retries an acked message, as the broker does")
                .isEqualTo(Kind.REDELIVER);
    }

    @Test
    void aThrownHandlerRetriesAllButWhatItAcknowledged() {
        assertThat(fate(DEFAULTS, 1, Call.NONE, -1, Call.NONE, -1, true).kind()).isEqualTo(Kind.REDELIVER);
        assertThat(fate(DEFAULTS, 1, Call.ACK, -1, Call.NONE, -1, true).kind()).isEqualTo(Kind.DELETE);
        assertThat(fate(DEFAULTS, 1, Call.NONE, -1, Call.ACK, -1, true).kind()).isEqualTo(Kind.DELETE);
    }

    @Test
    void theRetryDelayIsTheMessagesThenTheBatchsThenTheConsumers() {
        assertThat(fate(DLQ, 1, Call.RETRY, 7, Call.NONE, -1, false).readyAtMs()).isEqualTo(NOW + 7_000);
        assertThat(fate(DLQ, 1, Call.RETRY, 7, Call.RETRY, 9, false).readyAtMs()).isEqualTo(NOW + 7_000);
        assertThat(fate(DLQ, 1, Call.NONE, -1, Call.RETRY, 9, false).readyAtMs()).isEqualTo(NOW + 9_000);
        assertThat(fate(DLQ, 1, Call.NONE, -1, Call.NONE, -1, true).readyAtMs()).isEqualTo(NOW + 30_000);
        assertThat(fate(DLQ, 1, Call.RETRY, 0, Call.NONE, -1, false).readyAtMs()).as("an explicit 0 is no delay").isEqualTo(NOW);
    }

    @Test
    void afterMaxRetriesAMessageGoesToTheDeadLetterQueueOrIsDropped() {
        // max_retries 1: two attempts in all
        assertThat(fate(DLQ, 1, Call.RETRY, -1, Call.NONE, -1, false).kind()).isEqualTo(Kind.REDELIVER);
        assertThat(fate(DLQ, 2, Call.RETRY, -1, Call.NONE, -1, false).kind()).isEqualTo(Kind.DEAD_LETTER);
        assertThat(fate(DEFAULTS, 3, Call.NONE, -1, Call.NONE, -1, true).kind()).isEqualTo(Kind.REDELIVER);
        assertThat(fate(DEFAULTS, 4, Call.NONE, -1, Call.NONE, -1, true).kind()).isEqualTo(Kind.DROP);
        assertThat(fate(new Settings(10, 5, 0, 0, null), 1, Call.RETRY, -1, Call.NONE, -1, false).kind()).isEqualTo(Kind.DROP);
        assertThat(fate(DLQ, 2, Call.ACK, -1, Call.NONE, -1, true).kind()).as("an acked message is done whatever its count")
                .isEqualTo(Kind.DELETE);
    }

    @Test
    void delaysAreWholeSecondsUpToADay() {
        assertThat(QueueDelivery.delayProblem(0)).isNull();
        assertThat(QueueDelivery.delayProblem(86_400)).isNull();
        assertThat(QueueDelivery.delayProblem(86_401)).contains("from 0 to 86400 (got 86401)");
        assertThat(QueueDelivery.delayProblem(-1)).isNotNull();
        assertThat(QueueDelivery.delayProblem(1.5)).contains("got 1.5");
        assertThat(QueueDelivery.delayProblem(Double.NaN)).isNotNull();
    }

    private static Fate fate(Settings s, int attempts, Call own, long ownDelay, Call batch, long batchDelay, boolean threw) {
        return QueueDelivery.fate(s, attempts, own, ownDelay, batch, batchDelay, threw, NOW);
    }
}
