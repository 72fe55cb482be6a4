package org.streambench.runner;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test whose assertions depend on time (a rate, a latency, a deadline against a stall) runs while
 * the other test JVM runs nothing, when the runner's tests run in two forked JVMs
 * ({@code -Dstreambench.testForks=2}, {@link ForkLock}). On a class, it covers the class's own set-up too.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@interface RunsAlone {
    /** Which time-dependent figure it checks: the reason it runs alone. */
    String value();
}
