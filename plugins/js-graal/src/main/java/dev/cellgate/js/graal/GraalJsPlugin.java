package dev.cellgate.js.graal;

import org.pf4j.Plugin;

/** PF4J entry point of the js-graal plugin. */
public class GraalJsPlugin extends Plugin {
}
