package dev.cellgate.deploy.progress;

import java.io.PrintStream;

/** One line per blob, for logs and pipes where a redrawn bar would be noise. */
public final class LineProgress implements Progress {
    private final PrintStream err;
    private int items;
    private int done;

    public LineProgress(PrintStream err) {
        this.err = err;
    }

    @Override
    public void begin(int items, long totalBytes) {
        this.items = items;
        err.println("uploading " + items + " blob(s), " + Sizes.human(totalBytes));
    }

    @Override
    public void advance(String name, long bytes, boolean uploaded) {
        done++;
        err.println("[" + done + "/" + items + "] " + (uploaded ? "uploaded " : "exists   ") + name + " (" + Sizes.human(bytes) + ")");
    }

    @Override
    public void note(String line) {
        err.println(line);
    }

    @Override
    public void end() {
        err.flush();
    }
}
