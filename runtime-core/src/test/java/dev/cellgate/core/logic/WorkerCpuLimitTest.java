package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WorkerCpuLimitTest {
    @Test
    void theWorkersOwnLimitWinsOverTheNodeDefaultEitherWay() {
        assertThat(WorkerCpuLimit.effectiveMs(30_000, null)).isEqualTo(30_000);
        assertThat(WorkerCpuLimit.effectiveMs(30_000, 50L)).isEqualTo(50);
        assertThat(WorkerCpuLimit.effectiveMs(30_000, 120_000L)).as("above the node's default: the Worker's limit is the limit")
                .isEqualTo(120_000);
    }

    @Test
    void theLongestEventIsTheLargerOfTheNodeDefaultAndCloudflaresMaximum() {
        assertThat(WorkerCpuLimit.longestEventMs(30_000)).isEqualTo(300_000);
        assertThat(WorkerCpuLimit.longestEventMs(600_000)).isEqualTo(600_000);
        assertThat(WorkerCpuLimit.longestAnswerMs(30_000)).isEqualTo(330_000);
    }

    @Test
    void aPeerWaitsForTheLargerOfTheRunningDeploymentsBudgetAndTheNodesPlusTheSlack() {
        assertThat(WorkerCpuLimit.peerAnswerTimeoutMs(30_000, null)).isEqualTo(60_000);
        assertThat(WorkerCpuLimit.peerAnswerTimeoutMs(30_000, 300_000L)).isEqualTo(330_000);
        assertThat(WorkerCpuLimit.peerAnswerTimeoutMs(30_000, 50L)).as("a small CPU limit may still wait on I/O").isEqualTo(60_000);
    }

    @Test
    void onlyWholeNumbersFromOneToTheMaximumAreValid() {
        assertThat(WorkerCpuLimit.problem(1)).isNull();
        assertThat(WorkerCpuLimit.problem(300_000L)).isNull();
        assertThat(WorkerCpuLimit.problem(0)).contains("(got 0)");
        assertThat(WorkerCpuLimit.problem(300_001)).contains("from 1 to 300000");
        assertThat(WorkerCpuLimit.problem(2.0)).as("a JSON float is not a whole number of ms").contains("(got 2.0)");
        assertThat(WorkerCpuLimit.problem("50")).contains("(got \"50\")");
        assertThat(WorkerCpuLimit.problem(null)).contains("(got null)");
    }
}
