package dev.cellgate.core.logic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class MarkerKeysTest {
    static final String SCOPE = "Counter:abababababababababababababababababababababababababababababababab";

    @Test
    void parsesTheNodeAndScopeAndDropsTheGeneration() {
        assertThat(MarkerKeys.parseMarkerKey("node-cells/n1/0a1b2c/" + SCOPE))
                .contains(new MarkerKeys.Marker("n1", SCOPE));
        assertThat(MarkerKeys.parseMarkerKey("node-cells/n1/other-gen/" + SCOPE))
                .isEqualTo(MarkerKeys.parseMarkerKey("node-cells/n1/0a1b2c/" + SCOPE));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", "node-cells/", "node-cells/n1", "node-cells/n1/", "node-cells/n1/g1", "node-cells/n1/g1/",
            "node-cells/n1/" + SCOPE, // no generation
            "node-cells//g1/" + SCOPE, "node-cells/n1//" + SCOPE,
            "node-cells/n1/g1/" + SCOPE + "/", "node-cells/n1/g1/x/" + SCOPE, // extra segment
            "node-cells/./g1/" + SCOPE, "node-cells/../g1/" + SCOPE, "node-cells/n1/../" + SCOPE,
            "node-cells/n 1/g1/" + SCOPE, "node-cells/n1/g:1/" + SCOPE, "node-cells/n1/g1/Counter:ABAB",
            "node-cells/n1/g1/Counter:ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB", "node-cells/n1/g1/1Counter:abababababababababababababababababababababababababababababababab",
            "nodes/n1/g1/" + SCOPE, "xnode-cells/n1/g1/" + SCOPE, "cells/" + SCOPE + "/own.json"})
    void rejectsAnythingMalformed(String key) {
        assertThat(MarkerKeys.parseMarkerKey(key)).isEmpty();
    }

    @Test
    void rejectsNullAndOverlongSegments() {
        assertThat(MarkerKeys.parseMarkerKey(null)).isEmpty();
        assertThat(MarkerKeys.parseMarkerKey("node-cells/" + "n".repeat(129) + "/g/" + SCOPE)).isEmpty();
        assertThat(MarkerKeys.parseMarkerKey("node-cells/" + "n".repeat(128) + "/g/" + SCOPE)).isPresent();
    }

    @Property
    void everyKeyWrittenByKeysMarkerParsesBack(@ForAll("nodes") String node, @ForAll("nodes") String gen,
                                               @ForAll("scopes") String scope) {
        assertThat(MarkerKeys.parseMarkerKey(Keys.marker(node, gen, scope))).contains(new MarkerKeys.Marker(node, scope));
    }

    @Property
    void addingOrRemovingASegmentIsRejected(@ForAll("nodes") String node, @ForAll("nodes") String gen,
                                            @ForAll("scopes") String scope) {
        assertThat(MarkerKeys.parseMarkerKey(Keys.NODE_CELLS + node + "/" + scope)).isEmpty();
        assertThat(MarkerKeys.parseMarkerKey(Keys.NODE_CELLS + node + "/" + gen + "/" + gen + "/" + scope)).isEmpty();
    }

    @Property
    void aParsedMarkerAlwaysHasAValidScope(@ForAll("anyKeys") String key) {
        Optional<MarkerKeys.Marker> m = MarkerKeys.parseMarkerKey(key);
        m.ifPresent(marker -> assertThat(Scopes.isValid(marker.scope())).isTrue());
    }

    @Provide
    Arbitrary<String> nodes() {
        return LogicArbitraries.nodeIds();
    }

    @Provide
    Arbitrary<String> scopes() {
        return LogicArbitraries.scopes();
    }

    @Provide
    Arbitrary<String> anyKeys() {
        return net.jqwik.api.Arbitraries.strings().withChars("node-cls/:ab0.").ofMaxLength(40)
                .map(s -> "node-cells/" + s);
    }
}
