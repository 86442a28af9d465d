package dev.cellgate.sim;

/** A client call to a cell. Ids are unique in a run, so an acknowledged write can be looked for later. */
record Request(long id, String scope, Op op, long alarmAt) {
    enum Op {
        WRITE, SET_ALARM, DELETE_ALARM
    }
}
