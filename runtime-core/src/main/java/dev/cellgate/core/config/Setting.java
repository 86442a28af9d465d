package dev.cellgate.core.config;

/**
 * One configuration setting.
 *
 * @param env          the environment variable ({@code CELLD_RELEASES})
 * @param key          the node.json key ({@code releases})
 * @param type         how the value is checked
 * @param defaultValue the default as text, or {@code null} when computed or absent (see {@code defaultText})
 * @param defaultText  how {@code --help} describes the default
 * @param description  one line for {@code --help} and docs/configuration.md
 */
public record Setting(String env, String key, SettingType type, String defaultValue, String defaultText, String description) {

    static Setting of(String env, SettingType type, String defaultValue, String description) {
        return new Setting(env, keyOf(env), type, defaultValue, defaultValue == null ? "(none)" : defaultValue, description);
    }

    static Setting computed(String env, SettingType type, String defaultText, String description) {
        return new Setting(env, keyOf(env), type, null, defaultText, description);
    }

    private static String keyOf(String env) {
        String k = env.startsWith("CELLD_") ? env.substring("CELLD_".length()) : env;
        return k.toLowerCase(java.util.Locale.ROOT);
    }
}
