package dev.cellgate.gateway.packaging;

import dev.cellgate.core.config.Settings;
import dev.cellgate.gateway.node.ExitCodes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What a cellgate unit must say beyond being a valid unit: the stop window and the restart policy. */
final class UnitPolicy {
    /** After the drain bound: sockets, internal listener and lease hand-back (one 2 s timeout), then JVM halt and launcher exit. */
    static final long AFTER_DRAIN_MS = 3000;

    private UnitPolicy() {
    }

    static List<String> problems(Path file) throws IOException {
        Unit u = Unit.read(file);
        List<String> out = new ArrayList<>();
        String drainText = u.env("CELLD_SHUTDOWN_DRAIN_MS");
        long drain = Long.parseLong(drainText != null ? drainText : Settings.SHUTDOWN_DRAIN_MS.defaultValue());
        long stopSec = u.seconds("TimeoutStopSec");
        if (stopSec < 0) {
            out.add("TimeoutStopSec is not set (systemd's default, 90 s, says nothing about the drain)");
        } else if (stopSec * 1000 < drain + AFTER_DRAIN_MS) {
            out.add("TimeoutStopSec=" + stopSec + " s is below the drain bound " + drain + " ms + " + AFTER_DRAIN_MS
                    + " ms after it: systemd would SIGKILL the node mid-drain");
        }
        String grace = u.env("CELLD_STOP_GRACE_MS");
        if (grace == null) {
            out.add("Environment= must set CELLD_STOP_GRACE_MS (TimeoutStopSec in ms) so that the node refuses a drain bound that does not fit");
        } else if (stopSec >= 0 && Long.parseLong(grace) > stopSec * 1000) {
            out.add("CELLD_STOP_GRACE_MS=" + grace + " exceeds TimeoutStopSec=" + stopSec + " s");
        }
        if (!u.values("RestartPreventExitStatus").contains(String.valueOf(ExitCodes.CONFIG))) {
            out.add("RestartPreventExitStatus must name " + ExitCodes.CONFIG + " (invalid configuration): a restart cannot fix it and would loop");
        }
        String restart = u.last("Restart");
        if (restart == null || restart.equals("no") || restart.equals("on-success")) {
            out.add("Restart=" + restart + " does not restart a self-fenced node (exit " + ExitCodes.SELF_FENCED + ") or a killed one");
        }
        if (!"mixed".equals(u.last("KillMode"))) {
            out.add("KillMode must be mixed: SIGTERM to the launcher only, which forwards it to the node JVM");
        }
        return out;
    }
}
