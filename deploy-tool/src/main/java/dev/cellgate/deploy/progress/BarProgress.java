package dev.cellgate.deploy.progress;

import java.io.PrintStream;

/**
 * A progress bar redrawn in place with carriage returns (terminals only): bytes done over bytes
 * in all, blob count, and the blob just finished. A note first clears the bar's line, prints,
 * then redraws, so messages and the bar never overlap.
 */
public final class BarProgress implements Progress {
    static final int BAR_WIDTH = 30;

    private final PrintStream err;
    private int items;
    private long totalBytes;
    private int done;
    private long doneBytes;
    private int uploaded;
    private String last = "";
    private int drawnWidth;

    public BarProgress(PrintStream err) {
        this.err = err;
    }

    @Override
    public void begin(int items, long totalBytes) {
        this.items = items;
        this.totalBytes = totalBytes;
        draw();
    }

    @Override
    public void advance(String name, long bytes, boolean wasUploaded) {
        done++;
        doneBytes += bytes;
        uploaded += wasUploaded ? 1 : 0;
        last = name;
        draw();
    }

    @Override
    public void note(String line) {
        clear();
        err.println(line);
        draw();
    }

    @Override
    public void end() {
        clear();
        err.println("uploaded " + uploaded + " of " + items + " blob(s) (" + (items - uploaded) + " already in the bucket), "
                + Sizes.human(totalBytes));
        err.flush();
    }

    /** The bar as drawn for these numbers (without the leading carriage return). */
    static String render(int done, int items, long doneBytes, long totalBytes, String last) {
        double fraction = totalBytes > 0 ? (double) doneBytes / totalBytes : items == 0 ? 1 : (double) done / items;
        int filled = (int) Math.round(Math.min(1, fraction) * BAR_WIDTH);
        String name = last.length() > 40 ? "…" + last.substring(last.length() - 39) : last;
        return "[" + "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled) + "] " + done + "/" + items + " blobs "
                + Sizes.human(doneBytes) + "/" + Sizes.human(totalBytes) + (name.isEmpty() ? "" : " " + name);
    }

    private void draw() {
        String s = render(done, items, doneBytes, totalBytes, last);
        // Pad over a longer previous line: \r only moves the cursor, it does not erase.
        err.print("\r" + s + " ".repeat(Math.max(0, drawnWidth - s.length())));
        drawnWidth = s.length();
        err.flush();
    }

    private void clear() {
        err.print("\r" + " ".repeat(drawnWidth) + "\r");
        drawnWidth = 0;
    }
}
