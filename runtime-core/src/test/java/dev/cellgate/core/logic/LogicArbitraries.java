package dev.cellgate.core.logic;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Generators shared by the logic property tests. */
final class LogicArbitraries {
    private LogicArbitraries() {
    }

    static Arbitrary<String> nodeIds() {
        return Arbitraries.strings().withChars("abcXYZ019._-").ofMinLength(1).ofMaxLength(12)
                .filter(s -> !s.equals(".") && !s.equals(".."));
    }

    static Arbitrary<String> scopes() {
        Arbitrary<String> cls = Combinators.combine(
                Arbitraries.strings().withChars("ABCxyz_$").ofLength(1),
                Arbitraries.strings().withChars("ABCxyz_$09").ofMaxLength(10)).as(String::concat);
        Arbitrary<String> hex = Arbitraries.strings().withChars("0123456789abcdef").ofLength(64);
        return Combinators.combine(cls, hex).as((c, h) -> c + ":" + h);
    }
}
