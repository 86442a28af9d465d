package dev.cellgate.core.deploy;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/** Deployment ids sort by creation time, to the millisecond: {@code d-20261130T041350123Z-1a2b3c}. */
public final class DeploymentIds {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'").withZone(ZoneOffset.UTC);

    private DeploymentIds() {
    }

    public static String next(long nowMs) {
        byte[] r = new byte[3];
        new SecureRandom().nextBytes(r);
        return "d-" + STAMP.format(Instant.ofEpochMilli(nowMs)) + "-" + HexFormat.of().formatHex(r);
    }

    public static boolean isValid(String id) {
        return id != null && id.matches("d-[0-9]{8}T[0-9]{6}([0-9]{3})?Z-[0-9a-f]{6}");
    }
}
