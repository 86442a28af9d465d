package dev.cellgate.core.fleet;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/** Captures one class's log events, so a test can read the key/values our events carry. */
final class LogCapture implements AutoCloseable {
    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    LogCapture(Class<?> source) {
        logger = (Logger) LoggerFactory.getLogger(source);
        appender.start();
        logger.addAppender(appender);
    }

    /** The key/values of every event with this message, in order. */
    synchronized List<Map<String, Object>> events(String message) {
        return List.copyOf(appender.list).stream().filter(e -> message.equals(e.getMessage())).map(e -> {
            Map<String, Object> kv = new HashMap<>();
            List<KeyValuePair> pairs = e.getKeyValuePairs();
            if (pairs != null) {
                pairs.forEach(p -> kv.put(p.key, p.value));
            }
            return kv;
        }).toList();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
    }
}
