package dev.cellgate.core.spi.js;

/**
 * @param name       e.g. {@code GraalJS 25.0.3}
 * @param mode       {@code jit} when an optimizing compiler runs the code, else {@code interpreted}
 * @param detail     the engine's own implementation name, and when interpreted, why
 */
public record EngineInfo(String name, String mode, String detail) {
    public boolean optimizing() {
        return "jit".equals(mode);
    }
}
