package io.streamgrid.examples.cli;

import io.streamgrid.cli.CliRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the examples jar on the class path the CLI offers what it declares — its jobs by name, its
 * demos under {@code demo}, {@code model} — though grid-node has no compile-time dependency on it.
 */
class ExampleCommandsTest {
    @Test
    void when_examplesAreOnTheClassPath_then_theirJobsAreNamedBesideTheBuiltInOnes() {
        final CliRun typo = CliRun.of("job", "submit", "positons", "--member=127.0.0.1:1");

        assertThat(typo.code()).isEqualTo(2);
        assertThat(typo.errLines()).singleElement().asString().contains("unknown job 'positons' (did you mean 'positions'?)")
                .contains("ip-traffic", "positions", "machine-patterns", "user-activity", "recommendations", "fraud-scoring",
                        "model-training", "model-monitoring", "trades-by-symbol", "trade-quotes", "execution-quality");
    }

    @Test
    void when_examplesAreOnTheClassPath_then_theirDemosAndModelCommandAreThere() {
        final CliRun demoHelp = CliRun.of("demo", "--help");
        final CliRun modelHelp = CliRun.of("model", "--help");

        assertThat(demoHelp.code()).isZero();
        assertThat(demoHelp.out()).contains("trading", "machines", "recommendations", "fraud", "parameter-server", "federated");
        assertThat(modelHelp.code()).isZero();
        assertThat(modelHelp.out()).contains("list", "activate", "latest");
    }

    @Test
    void when_aJobWithoutCassandraTablesIsAskedForThem_then_exit2NamingTheJob() {
        final CliRun result = CliRun.of("job", "submit", "positions", "--cassandra", "--member=127.0.0.1:1");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("--cassandra: job positions declares no Cassandra tables");
    }
}
