package io.streamgrid.examples.federated;

import io.streamgrid.client.ClientSettings;
import io.streamgrid.client.Event;
import io.streamgrid.client.Publisher;
import io.streamgrid.client.PublisherOptions;
import io.streamgrid.client.StreamGridClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.streamgrid.sink.ChildJvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Simulated devices of a federation, many in one process (a client of the grid): each holds its own
 * examples ({@link DeviceData}; they never leave the process) and, whenever the global model opens
 * a round it was chosen for, trains from it ({@link LocalTraining}) and publishes its update through
 * its own publisher (sequence: the round — a device that submits a round again after a restart
 * appends nothing). Prints one line per update submitted: {@code submitted device D round R samples N at T}
 * (T: the wall clock in milliseconds when it was handed to the publisher).
 * Exits when the last round closed.
 */
@Command(name = "fl-devices", mixinStandardHelpOptions = true, description = "Run simulated federated-learning devices as a grid client.")
public final class FederatedDevices implements Callable<Integer> {
    private static final String CONNECTED = " connected to ";

    @Option(names = "--cluster", required = true, description = "The cluster's name.")
    String cluster;

    @Option(names = "--address", required = true, split = ",", description = "Members' host:port.")
    List<String> addresses;

    @Option(names = "--model", required = true, description = "The model: " + ModelArgument.FORMAT)
    String model;

    @Option(names = "--data", required = true, description = "The devices' data: seed,alpha,mean-samples.")
    String data;

    @Option(names = "--from", required = true, description = "The first device id here.")
    long from;

    @Option(names = "--to", required = true, description = "One past the last device id here.")
    long to;

    @Option(names = "--rounds", required = true, description = "Rounds to take part in.")
    long rounds;

    @Option(names = "--poll-ms", defaultValue = "10", description = "How often the global model is read (default: ${DEFAULT-VALUE}).")
    long pollMs;

    public static void main(final String[] args) {
        System.exit(new CommandLine(new FederatedDevices()).execute(args));
    }

    /**
     * Starts devices {@code [from, to)} in a process of their own (this JVM's {@code java} and class
     * path, a 128 MB heap), its output in {@code logFile}; stop it with {@link ChildJvm#close()}.
     */
    public static ChildJvm launch(final Path logFile, final Consumer<String> progress, final ClientSettings settings,
                                  final FederatedModel model, final DeviceData.Spec data, final long from, final long to, final long rounds) {
        final ChildJvm process = new ChildJvm("devices " + from + "–" + (to - 1), logFile, progress);
        process.start(ChildJvm.javaCommand(List.of("-Xmx128m", "-cp", System.getProperty("java.class.path"),
                FederatedDevices.class.getName(), "--cluster", settings.clusterName(),
                "--address", String.join(",", settings.addresses()), "--model", ModelArgument.format(model), "--data", data.format(),
                "--from", Long.toString(from), "--to", Long.toString(to), "--rounds", Long.toString(rounds))));
        return process;
    }

    /**
     * Waits until every one of {@code processes} has connected to the cluster (its log says so): rounds
     * started before would reach their deadline without its devices.
     *
     * @throws IllegalStateException when a process exited, or did not connect within {@code timeout}
     */
    public static void awaitConnected(final List<ChildJvm> processes, final Duration timeout) throws IOException, InterruptedException {
        final long giveUpAt = System.nanoTime() + timeout.toNanos();
        for (final ChildJvm process : processes) {
            while (!Files.exists(process.logFile()) || !Files.readString(process.logFile()).contains(CONNECTED)) {
                process.checkAlive("before connecting");
                if (System.nanoTime() > giveUpAt) {
                    throw new IllegalStateException("devices did not connect within " + timeout.toSeconds() + " s; see "
                            + process.logFile());
                }
                Thread.sleep(50);
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        final FederatedModel federated = ModelArgument.parse(model);
        final DeviceData devices = DeviceData.Spec.parse(data).devices(federated.dimensions());
        final Map<Long, List<LocalExample>> examples = new HashMap<>();
        for (long device = from; device < to; device++) {
            examples.put(device, devices.of(device));
        }
        final Map<Long, Publisher> publishers = new HashMap<>();
        final Map<Long, Long> submitted = new HashMap<>();
        try (StreamGridClient client = StreamGridClient.connect(ClientSettings.of(cluster, addresses))) {
            System.out.println("devices " + from + " to " + (to - 1) + CONNECTED + cluster);
            while (true) {
                final GlobalModel global = (GlobalModel) client.get(federated.globalMap(), federated.name());
                if (global != null && global.round() > rounds) {
                    break;
                }
                if (global != null) {
                    final List<Long> chosen = new ArrayList<>();
                    for (long device = from; device < to; device++) {
                        if (global.chose(device) && submitted.getOrDefault(device, 0L) < global.round()) {
                            chosen.add(device);
                        }
                    }
                    for (final long device : chosen) {
                        final LocalTraining.Update update = LocalTraining.train(federated, global.weights(), examples.get(device), device,
                                global.round());
                        final Publisher publisher = publishers.computeIfAbsent(device, d -> client.publisher(FederatedEvents.UPDATE.name(),
                                federated.devicePublisher(d), PublisherOptions.defaults()));
                        publisher.publish(global.round(), Event.builder().set("model", federated.name())
                                .set("ts", System.currentTimeMillis()).set("kind", "UPDATE").set("device", device)
                                .set("round", global.round()).set("samples", update.samples()).set("delta", Vectors.encode(update.delta()))
                                .build());
                        submitted.put(device, global.round());
                        System.out.println("submitted device " + device + " round " + global.round() + " samples " + update.samples()
                                + " at " + System.currentTimeMillis());
                    }
                }
                Thread.sleep(pollMs);
            }
            publishers.values().forEach(Publisher::close);
        }
        System.out.println("devices " + from + " to " + (to - 1) + ": the last round closed");
        return 0;
    }
}
