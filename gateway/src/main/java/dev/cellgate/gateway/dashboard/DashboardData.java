package dev.cellgate.gateway.dashboard;

import dev.cellgate.core.cell.Cells;
import dev.cellgate.core.fleet.FleetView;
import dev.cellgate.core.observe.ResidentCell;
import dev.cellgate.core.records.LeaseRecord;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The JSON behind the dashboard ({@code GET /dashboard/data}): the fleet as the bucket shows it
 * (node leases from the {@link FleetView} cache, the current deployment, the waker holder) and
 * this node's own state and resident cells. Times are given both as wall-clock values and as
 * ages relative to {@code now_ms}, so the page needs no clock agreement with the node.
 */
public final class DashboardData {
    /** At most this many resident cells are listed (most recently used first); the total is always given. */
    static final int MAX_CELLS = 200;

    private final String self;
    private final FleetView fleet;
    private final FleetRecords records;
    private final Cells cells;
    private final Supplier<JsonObject> state;

    public DashboardData(String self, FleetView fleet, dev.cellgate.core.spi.bucket.BucketStore bucket, Cells cells,
                         Supplier<JsonObject> state) {
        this.self = self;
        this.fleet = fleet;
        this.records = new FleetRecords(bucket);
        this.cells = cells;
        this.state = state;
    }

    public CompletableFuture<JsonObject> build() {
        long now = System.currentTimeMillis();
        return records.read(now).thenApply(r -> new JsonObject()
                .put("now_ms", now)
                .put("self", self)
                .put("deployment", r.getValue("deployment"))
                .put("waker", r.getValue("waker"))
                .put("nodes", nodes(now))
                .put("state", state.get())
                .put("cells", cells(now)));
    }

    private JsonArray nodes(long now) {
        JsonArray out = new JsonArray();
        for (LeaseRecord l : fleet.knownLeases()) {
            LeaseRecord.Load load = l.load();
            out.add(new JsonObject()
                    .put("node", l.node())
                    .put("self", l.node().equals(self))
                    .put("live", fleet.isLive(l))
                    .put("tombstone", l.isTombstone())
                    .put("advertise", l.advertise())
                    .put("protocol", l.protocol())
                    .put("started_ms", l.startedMs())
                    .put("lease_age_ms", Math.max(0, now - l.startedMs()))
                    .put("expires_ms", l.expiresMs())
                    .put("expires_in_ms", l.expiresMs() - now)
                    .put("load", new JsonObject().put("resident", load.resident()).put("max_resident", load.maxResident())
                            .put("pressured", load.pressured()).put("restoring", load.restoring())));
        }
        return out;
    }

    private JsonObject cells(long now) {
        List<ResidentCell> all = cells.residentInfo();
        JsonArray shown = new JsonArray();
        for (ResidentCell c : all.subList(0, Math.min(MAX_CELLS, all.size()))) {
            shown.add(new JsonObject().put("scope", c.scope()).put("epoch", c.epoch())
                    .put("idle_ms", Math.max(0, now - c.lastUsedMs())).put("last_used_ms", c.lastUsedMs())
                    .put("deployment", c.deployment()).put("name", c.name()));
        }
        return new JsonObject().put("total", all.size()).put("shown", shown);
    }
}
