package io.streamgrid.cli;

import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.node.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Instant;
import java.time.format.DateTimeParseException;

@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Run a job again over its logs' history, beside the live one (Kappa): the same job (a built-in "
                + "NAME, or --jar and --class) into maps of its own (<map>.<SUFFIX>), Cassandra tables of its own "
                + "(<table>_<SUFFIX>) and as Jet job <job>.<SUFFIX>. From the start it reproduces the live results "
                + "exactly; it never writes the live maps or tables and appends nothing to the logs. The command shows "
                + "its progress (share read, events/s, time left) until it has caught up with the logs, then returns; "
                + "the replay goes on following the logs like the live job: cancel it ('streamgrid job cancel "
                + "<job>.<SUFFIX>') when done."})
final class JobReplay extends JobSubmission {
    @Option(names = "--into", required = true, paramLabel = "SUFFIX",
            description = "The replay's name suffix: a lower-case letter, then lower-case letters, digits or '_' (at most 24).")
    String into;

    @Option(names = "--from", paramLabel = "TIME",
            description = "Skip events before this event time: an ISO-8601 instant (2026-12-01T10:00:00Z) or epoch "
                    + "milliseconds. Default: every event from the start.")
    String from;

    @Option(names = "--no-wait", description = "Return once the replay is submitted, without following its progress.")
    boolean noWait;

    @Override
    public Integer call() {
        followReplay = !noWait;
        final Replay replay;
        try {
            replay = from == null ? Replay.into(into) : Replay.into(into).from(eventTime(from));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("--into: " + e.getMessage(), e);
        }
        return submit(replay);
    }

    private static long eventTime(final String text) {
        if (text.matches("-?\\d+")) {
            return Long.parseLong(text);
        }
        try {
            return Instant.parse(text).toEpochMilli();
        } catch (final DateTimeParseException e) {
            throw new ConfigException("--from " + text + " is neither an ISO-8601 instant (e.g. 2026-12-01T10:00:00Z) "
                    + "nor epoch milliseconds");
        }
    }
}
