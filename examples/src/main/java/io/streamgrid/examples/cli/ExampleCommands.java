package io.streamgrid.examples.cli;

import io.streamgrid.cli.CliPlugin;

import java.util.List;

/**
 * The examples' additions to {@code streamgrid}: {@code demo trading|machines|recommendations|fraud|parameter-server|federated}
 * and {@code model list|activate|latest} (the fraud example's model versions). Listed in
 * {@code META-INF/services/io.streamgrid.cli.CliPlugin}; the example jobs themselves are
 * {@code StreamGridJob} services, submitted by name.
 */
public final class ExampleCommands implements CliPlugin {
    @Override
    public List<Object> demos() {
        return List.of(new TradingDemo(), new MachinesDemo(), new RecommendationsDemo(), new FraudDemo(), new ParameterServerDemo(),
                new FederatedDemo());
    }

    @Override
    public List<Object> commands() {
        return List.of(new ModelCommand());
    }
}
