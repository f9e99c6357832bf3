package io.streamgrid.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** The CLI run in-process, its exit code and output captured. */
public record CliRun(int code, String out, String err) {
    public static CliRun of(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = StreamGridCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(code, out.toString(), err.toString());
    }

    public List<String> errLines() {
        return err.lines().toList();
    }
}
