package dev.cellgate.store.s3;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.OptionalLong;
import software.amazon.awssdk.core.SdkResponse;

/**
 * The S3 server's clock as its {@code Date} response header says (RFC 1123, whole seconds), so a
 * node can compare its own clock with the bucket's (SPEC §20). Empty when the header is missing or
 * unreadable: the comparison is advisory and never fails a write.
 */
final class ServerDate {
    private ServerDate() {
    }

    static OptionalLong of(SdkResponse resp) {
        if (resp == null || resp.sdkHttpResponse() == null) {
            return OptionalLong.empty();
        }
        return resp.sdkHttpResponse().firstMatchingHeader("Date").map(ServerDate::parse).orElse(OptionalLong.empty());
    }

    static OptionalLong parse(String header) {
        try {
            return OptionalLong.of(ZonedDateTime.parse(header.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli());
        } catch (DateTimeParseException e) {
            return OptionalLong.empty();
        }
    }
}
