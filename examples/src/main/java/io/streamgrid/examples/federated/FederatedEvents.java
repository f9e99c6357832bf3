package io.streamgrid.examples.federated;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.TypedField;

/**
 * The one log of federated averaging, {@code fl-update}, keyed by model — so a model's events are in
 * one partition, in one order that every replay of the aggregator reads alike. The coordinator's
 * {@code START} (opens round 1) and {@code DEADLINE} (closes round {@code round} with the updates in
 * by then); a device's {@code UPDATE} for {@code round}: its model delta ({@link Vectors} text) over
 * {@code samples} local examples — or, with secure aggregation, its masked update
 * ({@link Vectors#encode(long[])}, samples 0: hidden in it) — and for secure aggregation its
 * {@code KEY} (its X25519 public key in {@code delta}) and {@code UNMASK} for {@code round} (its
 * correction in {@code delta}). Devices publish through the publish API (publisher
 * {@link FederatedModel#devicePublisher}, a sequence per event): a device that submits again appends
 * nothing. Only updates enter the grid: a device's examples never do.
 */
public final class FederatedEvents {
    /** A model's name: the log's key. */
    public static final int MODEL_NAME_LENGTH = 32;
    /** The log's partitions: a model's events are in one whichever the count; one serves the examples' few models. */
    public static final int PARTITIONS = 1;

    public static final EventSchema UPDATE = EventSchema.builder("fl-update")
            .stringKey("model", MODEL_NAME_LENGTH)
            .eventTime("ts")
            .enumOf("kind", "START", "UPDATE", "DEADLINE", "KEY", "UNMASK")
            .int64("device")
            .int64("round")
            .int64("samples")
            .string("delta", Vectors.maxCharacters(FederatedModel.MAX_DIMENSIONS + 1))
            .build();

    static final TypedField.EnumField KIND = UPDATE.enumField("kind");
    static final TypedField.LongField DEVICE = UPDATE.longField("device");
    static final TypedField.LongField ROUND = UPDATE.longField("round");
    static final TypedField.LongField SAMPLES = UPDATE.longField("samples");
    static final TypedField.StringField DELTA = UPDATE.stringField("delta");

    private FederatedEvents() {
    }

    /**
     * The members' configuration's {@code schemas:} section declaring {@link #UPDATE}, for members
     * that take devices' updates through the publish API (a member accepts events of the schemas its
     * configuration declares).
     */
    public static String schemasYaml() {
        final StringBuilder yaml = new StringBuilder("schemas:\n  ").append(UPDATE.name()).append(":\n")
                .append("    version: ").append(UPDATE.version()).append('\n')
                .append("    key: ").append(UPDATE.keyField()).append('\n')
                .append("    event-time: ").append(UPDATE.eventTimeField()).append('\n')
                .append("    fields:\n");
        for (final Field field : UPDATE.fields()) {
            yaml.append("      - {name: ").append(field.name()).append(", type: ").append(field.type().yamlName());
            if (field.maxLength() > 0) {
                yaml.append(", max-length: ").append(field.maxLength());
            }
            if (!field.symbols().isEmpty()) {
                yaml.append(", symbols: [").append(String.join(", ", field.symbols())).append(']');
            }
            yaml.append("}\n");
        }
        return yaml.toString();
    }

    /**
     * A member configuration's {@code ingest:} section (logs under {@code ingestDir}, {@link #PARTITIONS}
     * partitions a new log) followed by {@link #schemasYaml()}: what a member taking devices' updates needs.
     */
    public static String membersYaml(final java.nio.file.Path ingestDir) {
        return "ingest:\n  dir: " + ingestDir + "\n  partitions: " + PARTITIONS + "\n" + schemasYaml();
    }
}
