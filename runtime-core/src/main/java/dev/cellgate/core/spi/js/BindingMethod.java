package dev.cellgate.core.spi.js;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public method of a binding's host object ({@link BindingProvider#open}) as callable from
 * the binding's JavaScript wrapper. Nothing else of a host object is reachable from JavaScript.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface BindingMethod {
}
