package dev.cellgate.core.config;

/** A configuration error: the message is the single line a user sees, naming the setting and the value. */
public class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
