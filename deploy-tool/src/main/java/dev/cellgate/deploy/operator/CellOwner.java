package dev.cellgate.deploy.operator;

import dev.cellgate.core.logic.Keys;
import dev.cellgate.core.records.MalformedRecordException;
import dev.cellgate.core.records.OwnershipRecord;
import dev.cellgate.core.spi.bucket.BucketStore;
import dev.cellgate.core.spi.bucket.StoredObject;
import dev.cellgate.deploy.cli.CommandException;
import java.util.Optional;

/** Which node an operator call about one cell goes to: its owner, or while none holds it the node named by --node. */
final class CellOwner {
    private CellOwner() {
    }

    /** @param what names the cell in errors ("the database's cell", "cell Counter:ab…") */
    static String node(BucketStore store, String scope, String named, String what) {
        Optional<StoredObject> own = NodeCommand.read(store, Keys.ownership(scope));
        if (own.isPresent()) {
            try {
                OwnershipRecord r = OwnershipRecord.decode(own.get().bytes());
                if (!r.isReleased()) {
                    if (named != null && !named.equals(r.node())) {
                        throw CommandException.refused(what + " is owned by node " + r.node() + ", not " + named
                                + ": the call goes there (leave --node out)");
                    }
                    return r.node();
                }
            } catch (MalformedRecordException e) {
                throw CommandException.failed("the ownership record of " + scope + " is malformed: " + e.getMessage(), e);
            }
        }
        if (named == null) {
            throw CommandException.refused("no node holds " + what + " (" + scope + ") now: name one with --node NODE");
        }
        return named;
    }
}
