package org.streambench.runner;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.streambench.runner.cli.Bench;

/** Runs the bench CLI in this JVM, as ./bench does, and captures what it printed. */
record CliResult(int code, String out, String err) {

    static CliResult bench(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Bench.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliResult(code, out.toString(), err.toString());
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- out:\n" + out + "\n--- err:\n" + err;
    }
}
