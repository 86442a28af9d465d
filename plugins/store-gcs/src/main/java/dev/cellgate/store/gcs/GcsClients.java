package dev.cellgate.store.gcs;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import com.google.cloud.storage.spi.v1.HttpStorageRpc;
import java.io.IOException;

/**
 * Builds the google-cloud-storage client (JSON API over HTTP).
 *
 * <p>The library's own retries are off: it treats a write with {@code ifGenerationMatch} as
 * idempotent and would re-send it after a lost answer, and the re-sent write would then fail its
 * precondition against our own first write and report a rejection for a success. Our store
 * retries only what provably did nothing, with its own bound.
 */
final class GcsClients {
    /** A project id is required by the options builder but never used for object calls. */
    private static final String EMULATOR_PROJECT = "cellgate-emulator";

    private GcsClients() {
    }

    static Storage build(GcsStoreConfig c) {
        StorageOptions.Builder b = StorageOptions.http()
                .setRetrySettings(ServiceOptions.getNoRetrySettings())
                .setTransportOptions(HttpTransportOptions.newBuilder()
                        .setConnectTimeout((int) c.connectTimeout().toMillis())
                        .setReadTimeout((int) c.attemptTimeout().toMillis())
                        .build());
        if (c.endpoint().isPresent()) {
            b.setHost(c.endpoint().get().toString()).setCredentials(NoCredentials.getInstance()).setProjectId(EMULATOR_PROJECT);
        } else {
            b.setCredentials(applicationDefault(c));
        }
        return b.build().getService();
    }

    /** The JSON API (apiary) client the HTTP transport of {@code storage} uses, for media downloads with headers. */
    static com.google.api.services.storage.Storage jsonApi(Storage storage) {
        if (storage.getOptions().getRpc() instanceof HttpStorageRpc rpc) {
            return rpc.getStorage();
        }
        throw new IllegalStateException("the GCS client does not use the JSON API transport: " + storage.getOptions().getRpc());
    }

    private static GoogleCredentials applicationDefault(GcsStoreConfig c) {
        try {
            return GoogleCredentials.getApplicationDefault();
        } catch (IOException e) {
            throw new IllegalArgumentException("bucket " + c.url().raw() + " needs Google Application Default Credentials "
                    + "(GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login, or a metadata server): "
                    + e.getMessage(), e);
        }
    }
}
