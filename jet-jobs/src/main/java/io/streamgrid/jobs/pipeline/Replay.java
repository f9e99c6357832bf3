package io.streamgrid.jobs.pipeline;

import io.streamgrid.sink.TableSpec;

import java.io.Serializable;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * A job run again over its logs' history, side by side with the live one (Kappa): the same
 * definition reading the same logs from their first record, writing every map under a name of its
 * own ({@code <map>.<into>}: state, late, rejected and unmatched maps alike; the {@code dim.*} maps
 * it looks up are read as they are), every bound Cassandra table as {@code <table>_<into>}, and
 * running as Jet job {@code <job>.<into>}. The live job's maps and tables are never written.
 *
 * <p>What makes a replay from the start equal the live results: both read the same log records in
 * the same order, and a job's results are a function of those records alone, idle heartbeats
 * included. A replay appends nothing to the logs: a heartbeat moves the clock of every job that
 * reads it, so a replay reads the ones the live job appended and adds none of its own (with no live
 * job running, an idle log holds the replay back until its next record or its end of stream). A
 * replay that catches up goes on following the logs; cancel it when its maps have served.
 *
 * @param into            the suffix, lower case: a letter, then letters, digits or {@code _}, at most 24
 * @param fromEventTimeMs events whose event time is before this are skipped (read, not handled);
 *                        {@link Long#MIN_VALUE}: every event. Control records and records that are
 *                        not valid events are handled as in the live run.
 */
public record Replay(String into, long fromEventTimeMs) implements Serializable {
    private static final Pattern SUFFIX = Pattern.compile("[a-z][a-z0-9_]{0,23}");

    public Replay {
        if (into == null || !SUFFIX.matcher(into).matches()) {
            throw new IllegalArgumentException("replay suffix '" + into + "' is not valid: a lower-case letter, then lower-case "
                    + "letters, digits or '_', at most 24 (it ends map, table and job names)");
        }
    }

    /** A replay of every event in the logs, into maps suffixed {@code .into}. */
    public static Replay into(final String into) {
        return new Replay(into, Long.MIN_VALUE);
    }

    /** This replay, skipping events before {@code eventTimeMs}. */
    public Replay from(final long eventTimeMs) {
        return new Replay(into, eventTimeMs);
    }

    /** The map the replay writes instead of {@code map}. */
    public String mapName(final String map) {
        return map + "." + into;
    }

    /** The Jet job the replay of {@code job} runs as. */
    public String jobName(final String job) {
        return job + "." + into;
    }

    /** The table the replay writes instead of {@code table}; same keyspace and columns. */
    public TableSpec table(final TableSpec table) {
        final String name = table.table() + "_" + into;
        if (name.length() > 48) {
            throw new IllegalArgumentException("replay suffix '" + into + "' makes table name " + name + " longer than 48 characters: "
                    + "choose a shorter one");
        }
        return new TableSpec(table.keyspace(), name, table.columns(), table.partitionKey(), table.clusteringKey());
    }

    /** {@code output} with each binding's table replaced by the replay's ({@link #table}); null stays null. */
    public CassandraOutput output(final CassandraOutput output) {
        if (output == null) {
            return null;
        }
        return new CassandraOutput(output.target(), output.bindings().stream()
                .map(b -> new CassandraOutput.Binding(b.map(), table(b.table()), b.toRow(), b.keyToPrimaryKey())).toList(),
                output.options());
    }

    /** Whether it handles every event (skips none). */
    public boolean fromStart() {
        return fromEventTimeMs == Long.MIN_VALUE;
    }

    /** For messages: "from the start" or "from event time T". */
    public String describe() {
        return fromStart() ? "from the start of its logs" : "from event time " + Instant.ofEpochMilli(fromEventTimeMs);
    }
}
