package dev.cellgate.store.s3;

import org.pf4j.Plugin;

/** PF4J entry point of the store-s3 plugin. */
public class S3StorePlugin extends Plugin {
}
