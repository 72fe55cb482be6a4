package org.streambench.runner;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that uses something the machine has one of, such as the Docker engine that {@code bench
 * swarm up} starts: when the runner's tests run in two forked JVMs, the other JVM's classes that use it
 * wait until this class has ended ({@link ForkLock}); classes that do not use it run beside it. Without
 * it, the second swarm class would find the first one's engine and skip itself.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@interface OneForkAtATime {
    /** What the machine has one of, a word: the name of its lock file beside the fork lock's. */
    String value();
}
