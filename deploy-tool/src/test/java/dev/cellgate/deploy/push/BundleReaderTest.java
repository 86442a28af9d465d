package dev.cellgate.deploy.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

class BundleReaderTest {
    static byte[] jar(Manifest mf, String entry, String content) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (JarOutputStream out = mf == null ? new JarOutputStream(buf) : new JarOutputStream(buf, mf)) {
            out.putNextEntry(new ZipEntry(entry));
            out.write(content.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return buf.toByteArray();
    }

    @Test
    void pluginIdsComeFromTheManifestOrPluginProperties() throws Exception {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().putValue("Plugin-Id", "store-x");
        assertThat(PluginJars.pluginId(jar(mf, "a.class", "x"), "a.jar")).isEqualTo("store-x");
        assertThat(PluginJars.pluginId(jar(null, "plugin.properties", "plugin.id=from-props\n"), "b.jar")).isEqualTo("from-props");
        assertThatThrownBy(() -> PluginJars.pluginId(jar(null, "a.txt", "x"), "c.jar")).hasMessageContaining("not a PF4J plugin");
    }
}
