package dev.cellgate.deploy.push;

import dev.cellgate.deploy.cli.CommandException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

/**
 * Plugin jars a deployment carries ({@code push --plugin x.jar}). Each must be a PF4J plugin
 * (a {@code Plugin-Id} in its manifest or a {@code plugin.properties} with {@code plugin.id}):
 * a node would fail to hot-load anything else, after the deployment became current. The tool does
 * not run the plugin's code; loading it is the node's job.
 */
public final class PluginJars {
    private PluginJars() {
    }

    public static List<Bundle.PluginJar> read(List<String> paths) {
        List<Bundle.PluginJar> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (String s : paths) {
            Path p = Path.of(s);
            if (!Files.isRegularFile(p)) {
                throw CommandException.refused("plugin " + s + " is not a file");
            }
            String name = p.getFileName().toString();
            if (!name.endsWith(".jar") && !name.endsWith(".zip")) {
                throw CommandException.refused("plugin " + s + " must be a .jar (PF4J plugin)");
            }
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(p);
            } catch (IOException e) {
                throw CommandException.refused("cannot read plugin " + s + ": " + e);
            }
            String id = pluginId(bytes, s);
            if (!names.add(name)) {
                throw CommandException.refused("two plugins are named " + name);
            }
            if (!ids.add(id)) {
                throw CommandException.refused("two plugin jars declare plugin id '" + id + "'");
            }
            out.add(new Bundle.PluginJar(name, id, bytes));
        }
        return out;
    }

    static String pluginId(byte[] jar, String where) {
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
            Manifest mf = in.getManifest();
            String id = mf == null ? null : mf.getMainAttributes().getValue("Plugin-Id");
            boolean anyEntry = false;
            ZipEntry e;
            while (id == null && (e = in.getNextEntry()) != null) {
                anyEntry = true;
                if (e.getName().equals("plugin.properties")) {
                    id = propertiesId(in);
                }
            }
            if (id == null || id.isBlank()) {
                throw CommandException.refused("plugin " + where + (anyEntry || mf != null
                        ? " is not a PF4J plugin: no Plugin-Id in META-INF/MANIFEST.MF and no plugin.properties with plugin.id"
                        : " is not a jar (no entries)"));
            }
            return id.strip();
        } catch (IOException e) {
            throw CommandException.refused("plugin " + where + " is not a readable jar: " + e.getMessage());
        }
    }

    private static String propertiesId(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        return p.getProperty("plugin.id");
    }
}
