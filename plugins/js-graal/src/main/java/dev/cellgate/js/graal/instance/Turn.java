package dev.cellgate.js.graal.instance;

/** One synchronous run of JavaScript on the instance's executor, and the counters when it began. */
record Turn(long threadId, JsEvent event, long cpuStart, long allocStart) {
}
