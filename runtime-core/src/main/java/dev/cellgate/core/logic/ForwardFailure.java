package dev.cellgate.core.logic;

/**
 * Which failures of a forwarded cell call may be sent again (SPEC §20). A call is re-sent only
 * when it provably did not run: nothing was sent (no live lease, no connection could be made), or
 * the owner said so in a signed answer ("not owner", "draining"). A failure after the request
 * left — a reset, a timeout, an answer that cannot be authenticated, a result lost on the way —
 * may have run: re-sending it could run an increment or a POST twice, so it reaches the caller as
 * an error whose outcome is unknown ({@code retryable: false}, Cloudflare's shape), never as a
 * second run. Idempotent calls (the waker's wake-ups) may be re-sent after any failure.
 */
public final class ForwardFailure {
    private ForwardFailure() {
    }

    /** What went wrong with one forwarded attempt, as the sending node observed it. */
    public enum Kind {
        /** The owner's lease is missing or expired: nothing was sent (resolving again may take the cell over). */
        NO_LIVE_LEASE(false),
        /** The owner's lease says it speaks another peer protocol version: nothing was sent. */
        OTHER_VERSION(false),
        /** No connection to the owner could be made (refused, connect timeout): nothing was sent. */
        CONNECT_FAILED(false),
        /** A signed "not owner" answer: the receiver ran nothing and may name the owner. */
        NOT_OWNER(true),
        /** A signed "draining" answer: the receiver takes no new work, its cells are moving. */
        DRAINING(true),
        /** A signed refusal before the call ran (say, a body that did not match its signed digest). */
        REFUSED(true),
        /**
         * An unsigned 426 from a node whose lease, read again, says it speaks another version:
         * such a node refuses every request of this version before anything runs.
         */
        VERSION_REFUSED(true),
        /** The connection broke, or no answer came in time, after the request was sent. */
        LOST_AFTER_SEND(true),
        /**
         * An answer this node cannot trust: no valid MAC (forged, or not from a node of this fleet),
         * or a signed result it does not know.
         */
        UNTRUSTED_ANSWER(true),
        /** A signed "ok" whose body broke off or did not match its signed digest: the call ran, its result was lost. */
        RESULT_LOST(true),
        /** A signed error from the owner's cell (it threw, or the owner reports it could not complete). */
        ANSWERED_ERROR(true);

        private final boolean sent;

        Kind(boolean sent) {
            this.sent = sent;
        }

        /** Whether any byte of the request left this node. */
        public boolean sent() {
            return sent;
        }
    }

    /** What the router does with a failed attempt. */
    public enum Verdict {
        /** Resolve the owner again and send again: the call did not run. */
        RESEND,
        /** Fail the call as retryable: it did not run, and sending it again now would not help. */
        NOT_RUN,
        /** Fail the call with an unknown outcome ({@code retryable: false}): it may have run. */
        OUTCOME_UNKNOWN,
        /** Fail the call with the owner's own error, as the owner reported it. */
        AS_ANSWERED
    }

    /** The rule that maps a failure to a verdict. */
    public enum Policy {
        /** SPEC §20: re-send only what provably did not run. */
        AT_MOST_ONCE,
        /**
         * Deliberately broken (tests only): re-sends after delivery, as the router once did, so a
         * lost answer runs the call again. The at-most-once tests must catch it.
         */
        RESEND_AFTER_DELIVERY;

        /** @param idempotent the call may run any number of times (a wake-up) */
        public Verdict verdict(Kind kind, boolean idempotent) {
            return switch (kind) {
                case NO_LIVE_LEASE, CONNECT_FAILED, NOT_OWNER, DRAINING -> Verdict.RESEND;
                case OTHER_VERSION, VERSION_REFUSED, REFUSED -> Verdict.NOT_RUN;
                case ANSWERED_ERROR -> Verdict.AS_ANSWERED;
                case LOST_AFTER_SEND, UNTRUSTED_ANSWER, RESULT_LOST ->
                        idempotent || this == RESEND_AFTER_DELIVERY ? Verdict.RESEND : Verdict.OUTCOME_UNKNOWN;
            };
        }
    }

    /**
     * The verdict for a failed call on an object another node exported over JS RPC. The object
     * lives only in that node's memory, so there is no other owner to resolve: a node without a
     * live lease took its objects with it (the call fails, not run, at once), and everything else is
     * judged as {@link Policy#verdict} judges a forwarded call (a re-send goes to the same node).
     */
    public static Verdict exportVerdict(Policy policy, Kind kind) {
        return kind == Kind.NO_LIVE_LEASE ? Verdict.NOT_RUN : policy.verdict(kind, false);
    }

    /**
     * Whether an answer without a valid MAC needs the sender's lease read again to be judged: only a
     * bare 426 (no result) may be a node of another protocol version refusing at the door.
     */
    public static boolean unsignedNeedsLease(int status, String result) {
        return status == 426 && result.isEmpty();
    }

    /**
     * What an answer without a valid MAC proves (SPEC §6). Nothing it claims is acted on — a forged
     * "not owner" must not move the call — so the request counts as delivered and may have run
     * ({@link Kind#UNTRUSTED_ANSWER}), except where the bucket proves otherwise: a bare 426 from a node
     * whose lease, read again, names another protocol version ({@link Kind#VERSION_REFUSED}): such a
     * node refuses every request of this version before anything runs.
     *
     * @param leaseProtocol the protocol the sender's lease names, read after the answer; empty when the
     *                      lease was not read, is missing, or could not be read
     */
    public static Kind ofUnsigned(int status, String result, java.util.OptionalInt leaseProtocol, int ownProtocol) {
        return unsignedNeedsLease(status, result) && leaseProtocol.isPresent() && leaseProtocol.getAsInt() != ownProtocol
                ? Kind.VERSION_REFUSED : Kind.UNTRUSTED_ANSWER;
    }

    /** How long to wait before a re-send of this kind: a moved owner at once, a dead or draining one after a pause. */
    public static long resendDelayMs(Kind kind) {
        return switch (kind) {
            case NOT_OWNER -> 1;
            case NO_LIVE_LEASE -> 50;
            case CONNECT_FAILED -> 200;
            default -> 100;
        };
    }
}
