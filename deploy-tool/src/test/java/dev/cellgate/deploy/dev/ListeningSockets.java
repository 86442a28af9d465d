package dev.cellgate.deploy.dev;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** The TCP sockets a process tree listens on, read from /proc (Linux): each as {@code address:port}. */
final class ListeningSockets {
    private ListeningSockets() {
    }

    static List<String> of(ProcessHandle root) throws IOException {
        Set<String> inodes = new HashSet<>();
        List<ProcessHandle> tree = new ArrayList<>(List.of(root));
        tree.addAll(root.descendants().toList());
        for (ProcessHandle h : tree) {
            Path fds = Path.of("/proc", String.valueOf(h.pid()), "fd");
            try (Stream<Path> s = Files.list(fds)) {
                for (Path fd : s.toList()) {
                    try {
                        String link = Files.readSymbolicLink(fd).toString();
                        if (link.startsWith("socket:[")) {
                            inodes.add(link.substring(8, link.length() - 1));
                        }
                    } catch (IOException gone) {
                        // closed while listing
                    }
                }
            } catch (IOException gone) {
                // the process ended
            }
        }
        List<String> out = new ArrayList<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // f[1] local address (hex), f[3] state (0A: LISTEN), f[9] inode
                if (f[3].equals("0A") && inodes.contains(f[9])) {
                    out.add(address(f[1]));
                }
            }
        }
        return out;
    }

    private static String address(String hex) {
        String[] parts = hex.split(":");
        int port = Integer.parseInt(parts[1], 16);
        String a = parts[0];
        if (a.length() == 8) { // IPv4, little-endian
            return Integer.parseInt(a.substring(6, 8), 16) + "." + Integer.parseInt(a.substring(4, 6), 16) + "."
                    + Integer.parseInt(a.substring(2, 4), 16) + "." + Integer.parseInt(a.substring(0, 2), 16) + ":" + port;
        }
        if (a.startsWith("0000000000000000FFFF0000")) { // an IPv4-mapped IPv6 address (a dual-stack JVM socket)
            return address(a.substring(24) + ":" + parts[1]);
        }
        if (a.equals("00000000000000000000000001000000")) {
            return "[::1]:" + port;
        }
        return "[" + a + "]:" + port; // any other IPv6 address, the wildcard included, fails the check
    }
}
