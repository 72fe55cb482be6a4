package org.streambench.servers;

import java.util.Map;

/** The configuration files of the Hadoop-family servers the suite runs (HBase, YARN). */
public final class HadoopFiles {

    private HadoopFiles() {}

    /** A {@code *-site.xml} holding these properties. */
    public static String siteXml(Map<String, String> properties) {
        StringBuilder xml =
                new StringBuilder("<?xml version=\"1.0\"?>\n<!-- written by streambench -->\n<configuration>\n");
        properties.forEach((name, value) -> xml.append("  <property><name>")
                .append(name)
                .append("</name><value>")
                .append(value.replace("&", "&amp;").replace("<", "&lt;"))
                .append("</value></property>\n"));
        return xml.append("</configuration>\n").toString();
    }

    /** A log4j 1.2 configuration that logs INFO and up to the console (the server's log file), with these lines added. */
    public static String consoleLog4j(String... extraLines) {
        StringBuilder properties = new StringBuilder(
                """
                log4j.rootLogger=INFO, console
                log4j.appender.console=org.apache.log4j.ConsoleAppender
                log4j.appender.console.layout=org.apache.log4j.PatternLayout
                log4j.appender.console.layout.ConversionPattern=%d{HH:mm:ss.SSS} %-5p [%t] %c{1}: %m%n
                """);
        for (String line : extraLines) {
            properties.append(line).append('\n');
        }
        return properties.toString();
    }
}
