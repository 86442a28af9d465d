package dev.cellgate.core.logic;

import java.util.regex.Pattern;

/** A cell's scope is {@code <ClassName>:<64 lowercase hex id>}. */
public final class Scopes {
    private static final Pattern CLASS = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]{0,127}");
    private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

    private Scopes() {
    }

    public static String of(String className, String hexId) {
        if (!isClassName(className)) {
            throw new IllegalArgumentException("invalid Durable Object class name '" + className + "'");
        }
        if (!isHexId(hexId)) {
            throw new IllegalArgumentException("a Durable Object id is 64 lowercase hex characters, got '" + hexId + "'");
        }
        return className + ":" + hexId;
    }

    public static boolean isValid(String scope) {
        int colon = scope == null ? -1 : scope.indexOf(':');
        return colon > 0 && isClassName(scope.substring(0, colon)) && isHexId(scope.substring(colon + 1));
    }

    public static String className(String scope) {
        return scope.substring(0, scope.indexOf(':'));
    }

    public static String hexId(String scope) {
        return scope.substring(scope.indexOf(':') + 1);
    }

    public static boolean isClassName(String s) {
        return s != null && CLASS.matcher(s).matches();
    }

    public static boolean isHexId(String s) {
        return s != null && HEX.matcher(s).matches();
    }
}
