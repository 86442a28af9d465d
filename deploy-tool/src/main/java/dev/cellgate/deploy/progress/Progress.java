package dev.cellgate.deploy.progress;

/** Reports blob uploads while a push runs: a bar on a terminal, plain lines otherwise, or nothing. */
public interface Progress {

    /** Uploads start: {@code items} blobs of {@code totalBytes} in all. */
    void begin(int items, long totalBytes);

    /** One blob is done: uploaded now, or already in the bucket (content-addressed, so skipped). */
    void advance(String name, long bytes, boolean uploaded);

    /** A line that must be seen as it is (a retry, say), printed without corrupting a bar. */
    void note(String line);

    /** Uploads are over. */
    void end();

    Progress OFF = new Progress() {
        @Override
        public void begin(int items, long totalBytes) {
        }

        @Override
        public void advance(String name, long bytes, boolean uploaded) {
        }

        @Override
        public void note(String line) {
        }

        @Override
        public void end() {
        }
    };
}
