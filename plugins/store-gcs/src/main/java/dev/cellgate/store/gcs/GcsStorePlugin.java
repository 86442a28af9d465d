package dev.cellgate.store.gcs;

import org.pf4j.Plugin;

/** PF4J entry point of the store-gcs plugin. */
public class GcsStorePlugin extends Plugin {
}
