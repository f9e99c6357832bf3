package io.streamgrid.examples.cli;

import io.streamgrid.cli.CliRun;
import io.streamgrid.cli.StreamGridCli;
import io.streamgrid.client.OneMemberGrid;
import io.streamgrid.examples.fraud.ModelVersion;
import io.streamgrid.examples.fraud.Payments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code model list|activate|latest} show a model's versions and move its pin, against a running member. */
class ModelCommandTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_versionsArePublished_then_listShowsThemAndActivatePinsOneUntilLatest() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir)) {
            final String config = grid.config.toString();
            final CliRun none = CliRun.of("model", "list", "fraud", "--config", config);
            assertThat(none.code()).isEqualTo(StreamGridCli.EXIT_FAILED);
            assertThat(none.err()).contains("model fraud has no published versions");

            for (long v = 3; v <= 5; v++) {
                final ModelVersion version = new ModelVersion("fraud", v, new double[] {v, -v}, 100 * v, 1_767_225_600_000L + v * 60_000);
                grid.client.hazelcast().getMap(Payments.MODEL_VERSIONS).set(Payments.versionKey("fraud", v), version);
                grid.client.hazelcast().getMap(Payments.MODELS).set("fraud", version);
            }
            grid.client.hazelcast().getMap(Payments.MODEL_VERSIONS).set(Payments.versionKey("other", 9),
                    new ModelVersion("other", 9, new double[] {1}, 900, 0));

            final CliRun list = CliRun.of("model", "list", "fraud", "--config", config);
            assertThat(list.code()).as(list.err()).isZero();
            assertThat(list.out().lines()).containsExactly(
                    "    VERSION     LABELS  PUBLISHED (event time)",
                    "          3        300  2026-01-01T00:03:00Z",
                    "          4        400  2026-01-01T00:04:00Z",
                    "*         5        500  2026-01-01T00:05:00Z",
                    "* scoring follows the newest version");

            final CliRun activate = CliRun.of("model", "activate", "fraud", "4", "--config", config);
            assertThat(activate.code()).as(activate.err()).isZero();
            assertThat(grid.client.hazelcast().getMap(Payments.MODEL_PINS).get("fraud")).isEqualTo(4L);
            assertThat(CliRun.of("model", "list", "fraud", "--config", config).out())
                    .contains("*         4        400").contains("* pinned: scoring uses version 4");

            final CliRun unknown = CliRun.of("model", "activate", "fraud", "2", "--config", config);
            assertThat(unknown.code()).isEqualTo(StreamGridCli.EXIT_USAGE);
            assertThat(unknown.err()).contains("model fraud has no version 2 kept; kept versions: 3..5");
            assertThat(grid.client.hazelcast().getMap(Payments.MODEL_PINS).get("fraud")).as("the pin unchanged").isEqualTo(4L);

            final CliRun latest = CliRun.of("model", "latest", "fraud", "--config", config);
            assertThat(latest.out()).contains("scoring follows the newest version (was pinned to version 4)");
            assertThat(grid.client.hazelcast().getMap(Payments.MODEL_PINS).containsKey("fraud")).isFalse();
        }
    }
}
