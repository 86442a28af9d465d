package dev.cellgate.core.cell;

import dev.cellgate.core.observe.Errors;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.logic.ForwardFailure;
import dev.cellgate.core.logic.ForwardFailure.Kind;
import dev.cellgate.core.spi.js.CellIdentity;
import dev.cellgate.core.spi.js.ExportedObjects;
import dev.cellgate.core.spi.js.HttpRequestData;
import dev.cellgate.core.spi.js.HttpResponseData;
import dev.cellgate.core.spi.js.OutcomeUnknownException;
import dev.cellgate.core.spi.js.StubCallException;
import dev.cellgate.core.logic.WakeEntryVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Calls on objects another node exported over JS RPC, through the router: a stand-in for the peer
 * link runs each delivered call on "n1" (counting runs) and fails its first attempt the way the
 * wire can. A call runs at most once whatever the failure; a key of this node never leaves it.
 */
class CellRouterExportCallTest extends WithCellHost {
    static final String KEY = "n1/e.1";

    /** n1's side of the link: runs every call that reached it, and fails the first attempt as {@code firstFailure}. */
    static final class LossyExporter implements Forwarder {
        final AtomicInteger runs = new AtomicInteger();
        final AtomicInteger attempts = new AtomicInteger();
        final List<String> released = new ArrayList<>();
        volatile Kind firstFailure;

        @Override
        public CompletableFuture<byte[]> callExport(String node, String key, String op, String pathJson, byte[] arguments) {
            attempts.incrementAndGet();
            Kind k = firstFailure;
            firstFailure = null;
            if (k == null || k.sent()) {
                runs.incrementAndGet(); // it reached n1 (a refusal "ran" nothing, but counting it only makes the check stricter)
            }
            return k == null ? CompletableFuture.completedFuture(new byte[] {(byte) runs.get()})
                    : CompletableFuture.failedFuture(k == Kind.ANSWERED_ERROR
                            ? ForwardFailedException.answered(new StubCallException("RPC stub used after being disposed.", false, null))
                            : new ForwardFailedException(k, "the wire failed: " + k));
        }

        @Override
        public CompletableFuture<Void> releaseExport(String node, String key) {
            released.add(node + " " + key);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<HttpRequestData> replayable(HttpRequestData request) {
            throw new AssertionError("not a cell call");
        }

        @Override
        public CompletableFuture<HttpResponseData> fetch(String node, CellIdentity id, HttpRequestData request) {
            throw new AssertionError("not a cell call");
        }

        @Override
        public CompletableFuture<byte[]> call(String node, CellIdentity id, String method, byte[] arguments) {
            throw new AssertionError("not a cell call");
        }

        @Override
        public CompletableFuture<WakeEntryVerdict.Reply> wake(String node, CellIdentity id, OptionalLong entryMinuteMs) {
            throw new AssertionError("not a cell call");
        }

        @Override
        public String placementTarget() {
            return null;
        }
    }

    CellRouter routerOfN2(Forwarder link, ForwardFailure.Policy policy) {
        CellRouter r = new CellRouter(null, vertx); // export calls never touch this node's cells
        r.forwarder(link);
        r.policy(policy);
        r.exports("n2", null);
        return r;
    }

    /** Each failure after delivery, once, under {@code policy}: the calls that ran more than once, described. */
    List<String> runTwiceUnder(ForwardFailure.Policy policy) {
        List<String> out = new ArrayList<>();
        for (Kind k : List.of(Kind.LOST_AFTER_SEND, Kind.UNTRUSTED_ANSWER, Kind.RESULT_LOST, Kind.ANSWERED_ERROR)) {
            LossyExporter n1 = new LossyExporter();
            n1.firstFailure = k;
            try {
                routerOfN2(n1, policy).callExport("n1", KEY, "call", "[\"inc\"]", new byte[0]).get(20, TimeUnit.SECONDS);
            } catch (Exception expected) {
                // at most once means the caller may get an error here
            }
            if (n1.runs.get() != 1) {
                out.add(k + " ran " + n1.runs.get() + " times");
            }
        }
        return out;
    }

    @Test
    void aCallThatMayHaveRunIsNeverSentAgain() {
        assertThat(runTwiceUnder(ForwardFailure.Policy.AT_MOST_ONCE)).isEmpty();
    }

    @Test
    void theBrokenPolicyIsCaught() {
        assertThat(runTwiceUnder(ForwardFailure.Policy.RESEND_AFTER_DELIVERY))
                .as("the deliberately broken policy re-sends after delivery, and this check sees it")
                .contains("LOST_AFTER_SEND ran 2 times", "UNTRUSTED_ANSWER ran 2 times", "RESULT_LOST ran 2 times");
    }

    @Test
    void aLostAnswerFailsWithAnUnknownOutcome() throws Exception {
        assertThat(onceFailing(Kind.LOST_AFTER_SEND)).isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("an object exported by node n1");
    }

    @Test
    void theOwnersRefusalReachesTheCallerAsItSaidIt() throws Exception {
        assertThat(onceFailing(Kind.ANSWERED_ERROR)).isInstanceOf(StubCallException.class)
                .hasMessage("RPC stub used after being disposed.");
    }

    /** The caller's error when the first attempt fails as {@code kind}, checked to be the only attempt. */
    private Throwable onceFailing(Kind kind) throws Exception {
        LossyExporter n1 = new LossyExporter();
        n1.firstFailure = kind;
        Throwable failure = failureOf(routerOfN2(n1, ForwardFailure.Policy.AT_MOST_ONCE).callExport("n1", KEY, "call", "[]", new byte[0]));
        assertThat(n1.attempts.get()).as("attempts after %s", kind).isEqualTo(1);
        return failure;
    }

    @Test
    void aCallThatProvablyDidNotLeaveIsSentAgainToTheSameNode() throws Exception {
        LossyExporter n1 = new LossyExporter();
        n1.firstFailure = Kind.CONNECT_FAILED;
        byte[] r = routerOfN2(n1, ForwardFailure.Policy.AT_MOST_ONCE).callExport("n1", KEY, "call", "[]", new byte[0])
                .get(20, TimeUnit.SECONDS);
        assertThat(r).containsExactly(1);
        assertThat(n1.attempts.get()).isEqualTo(2);
    }

    @Test
    void anExporterWithoutALiveLeaseFailsAtOnceItsObjectsEndedWithIt() throws Exception {
        Throwable failure = onceFailing(Kind.NO_LIVE_LEASE);
        assertThat(failure).isInstanceOf(StubCallException.class).hasMessageContaining("did not run")
                .hasMessageContaining("its objects ended with it");
        assertThat(((StubCallException) failure).retryable()).isFalse();
    }

    @Test
    void aKeyOfThisNodeGoesToItsOwnEngineNotOverTheLink() throws Exception {
        LossyExporter link = new LossyExporter();
        List<String> local = new ArrayList<>();
        CellRouter r = routerOfN2(link, ForwardFailure.Policy.AT_MOST_ONCE);
        r.exports("n2", new ExportedObjects() {
            @Override
            public CompletableFuture<byte[]> call(String key, String op, String pathJson, byte[] arguments) {
                local.add("call " + key);
                return CompletableFuture.completedFuture(new byte[] {7});
            }

            @Override
            public void release(String key) {
                local.add("release " + key);
            }

            @Override
            public int liveExports() {
                return 0;
            }

            @Override
            public int liveRefs() {
                return 0;
            }
        });
        assertThat(r.callExport("n2", "n2/e.4", "call", "[]", new byte[0]).get(5, TimeUnit.SECONDS)).containsExactly(7);
        r.releaseExport("n2", "n2/e.4").get(5, TimeUnit.SECONDS);
        r.releaseExport("n1", KEY).get(5, TimeUnit.SECONDS);
        assertThat(local).containsExactly("call n2/e.4", "release n2/e.4");
        assertThat(link.attempts.get()).isZero();
        assertThat(link.released).containsExactly("n1 " + KEY);
    }

    private static Throwable failureOf(CompletableFuture<byte[]> f) throws Exception {
        try {
            f.get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return Errors.unwrap(e);
        }
        throw new AssertionError("the call succeeded");
    }
}
