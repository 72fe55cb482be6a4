package org.streambench.runner;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that uses something the machine has only one of (the Docker engine a swarm test
 * starts, its bridges): when the runner's tests run in two forked JVMs, no two such classes run at
 * the same time, while other tests may run beside them ({@link ForkLock}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@interface OneForkAtATime {
    /** What the class uses that the machine has only one of. */
    String value();
}
