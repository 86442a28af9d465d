package dev.cellgate.core.spi.js;

import java.util.List;

/**
 * The result of {@link CellStorage#sql}. Values are {@code null}, {@code Long}, {@code Double},
 * {@code String} or {@code byte[]} (SQLite's storage classes).
 */
public record SqlResult(List<String> columnNames, List<Object[]> rows, long rowsRead, long rowsWritten) {
}
