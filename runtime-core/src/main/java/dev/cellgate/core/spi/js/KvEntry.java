package dev.cellgate.core.spi.js;

/** A KV pair as stored: the key and the engine's serialized value. */
public record KvEntry(String key, byte[] value) {
}
