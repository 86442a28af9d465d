package dev.cellgate.core.cell;

import static dev.cellgate.core.cell.CellsLifecycleTest.body;
import static dev.cellgate.core.cell.CellsLifecycleTest.eventually;
import static dev.cellgate.core.cell.CellsLifecycleTest.get;
import static dev.cellgate.core.cell.CellsLifecycleTest.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cellgate.core.fleet.OwnershipStore;
import dev.cellgate.core.fleet.Self;
import dev.cellgate.core.fleet.WakeIndex;
import dev.cellgate.core.observe.CellEvents;
import dev.cellgate.core.time.Ticker;
import java.util.concurrent.Executors;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the node's tracing is told of cell events: one start and one end each, and whether the event activated its cell. */
class CellEventsTest extends WithCellHost {
    Cells cells() {
        CellsConfig cfg = new CellsConfig(dir.resolve("watch"), true, 3_600_000, OptionalInt.empty(), OptionalInt.empty(), 0, 2);
        Cells c = new Cells(vertx, cfg, new OwnershipStore(bucket, new Self("n1", "s1"), Ticker.SYSTEM), null, () -> script,
                Ticker.SYSTEM, Executors.newFixedThreadPool(4), () -> true, new WakeIndex(bucket));
        c.stubs(new CellRouter(c, vertx));
        return c;
    }

    record Seen(String requestId, String scope, String kind, boolean warm, List<String> ends) {
    }

    @Test
    void eachEventStartsAndEndsOnceAndSaysWhetherItActivatedItsCell() throws Exception {
        Cells c = cells();
        List<Seen> seen = new CopyOnWriteArrayList<>();
        c.events((requestId, cell, kind, warm) -> {
            Seen s = new Seen(requestId, cell.scope(), kind, warm, new CopyOnWriteArrayList<>());
            seen.add(s);
            return error -> s.ends().add(error == null ? "ok" : error.getClass().getSimpleName());
        });
        assertThat(body(c.fetch(id(1), get("/")))).isEqualTo("1");
        assertThat(body(c.fetch(id(1), get("/")))).isEqualTo("2");
        c.call(id(2), "method", new byte[0]).handle((r, e) -> null).get(30, TimeUnit.SECONDS);
        eventually(() -> seen.size() == 3 && seen.stream().allMatch(s -> !s.ends().isEmpty()), "three events ended");
        assertThat(seen.get(0)).extracting(Seen::requestId, Seen::scope, Seen::kind, Seen::warm).containsExactly("r", id(1).scope(), "fetch", false);
        assertThat(seen.get(1).warm()).as("the second event found its cell active").isTrue();
        assertThat(seen.get(2)).extracting(Seen::requestId, Seen::kind, Seen::warm).containsExactly(null, "call", false);
        assertThat(seen).allSatisfy(s -> assertThat(s.ends()).hasSize(1));
        assertThat(seen.get(0).ends()).containsExactly("ok");
    }

    @Test
    void withoutAWatcherNothingIsCalled() throws Exception {
        Cells c = cells();
        c.events(null);
        assertThat(body(c.fetch(id(1), get("/")))).isEqualTo("1");
        assertThat(CellEvents.NONE.start("r", id(1), "fetch", true)).isSameAs(CellEvents.NO_EVENT);
    }
}
