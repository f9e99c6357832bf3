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
import java.security.KeyPair;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Simulated devices of a federation, many in one process (a client of the grid): each holds its own
 * examples ({@link DeviceData}; they never leave the process) and, whenever the global model opens
 * a round it was chosen for, trains from it ({@link LocalTraining}) and publishes its update through
 * its own publisher (sequence 2 × round — a device that submits a round again after a restart
 * appends nothing). With secure aggregation each device first publishes a new public key (through a
 * key publisher of its own; its private key stays in this process, and a round that chose it with
 * an older key goes without it), masks its updates, and answers its round's call for corrections
 * (sequence 2 × round + 1). Prints one line per update submitted: {@code submitted device D round R samples N at T}
 * (T: the wall clock in milliseconds when it was handed to the publisher).
 * Exits when the last round closed.
 */
@Command(name = "fl-devices", mixinStandardHelpOptions = true, description = "Run simulated federated-learning devices as a grid client.")
public final class FederatedDevices implements Callable<Integer> {
    private static final String CONNECTED = " connected to ";
    private static final SecureRandom RANDOM = new SecureRandom();

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
        final Map<Long, Device> here = new HashMap<>();
        try (StreamGridClient client = StreamGridClient.connect(ClientSettings.of(cluster, addresses))) {
            for (long id = from; id < to; id++) {
                final long device = id;
                here.put(device, new Device(device, devices.of(device), client.publisher(FederatedEvents.UPDATE.name(),
                        federated.devicePublisher(device), PublisherOptions.defaults()), federated.secure() ? SecureAggregation.newKeyPair() : null));
            }
            if (federated.secure()) {
                // A key of their own each run (a key publisher's next sequence): a restarted device's new key counts from the next round.
                for (final Device device : here.values()) {
                    try (Publisher keys = client.publisher(FederatedEvents.UPDATE.name(), federated.devicePublisher(device.id) + "-key",
                            PublisherOptions.defaults())) {
                        keys.publish(event(federated, "KEY", device.id, 0, 0, SecureAggregation.text(device.keys.getPublic())));
                    }
                }
            }
            System.out.println("devices " + from + " to " + (to - 1) + CONNECTED + cluster);
            while (true) {
                final GlobalModel global = (GlobalModel) client.get(federated.globalMap(), federated.name());
                if (global != null && global.round() > rounds) {
                    break;
                }
                for (final Device device : here.values()) {
                    if (global != null && global.chose(device.id) && device.submitted < global.round()) {
                        submit(federated, device, global);
                    }
                    if (device.maskedRound > 0) {
                        correct(client, federated, device, global);
                    }
                }
                Thread.sleep(pollMs);
            }
            here.values().forEach(device -> device.publisher.close());
        }
        System.out.println("devices " + from + " to " + (to - 1) + ": the last round closed");
        return 0;
    }

    /** One simulated device: its examples (never sent), publisher, keys, and where it stands. */
    private static final class Device {
        final long id;
        final List<LocalExample> examples;
        final Publisher publisher;
        final KeyPair keys;
        long submitted;
        /** Secure aggregation: the round of its masked update waiting for the call for corrections, and its self mask's seed. */
        long maskedRound;
        byte[] selfSeed;

        Device(final long id, final List<LocalExample> examples, final Publisher publisher, final KeyPair keys) {
            this.id = id;
            this.examples = examples;
            this.publisher = publisher;
            this.keys = keys;
        }
    }

    /** Trains from the round's model and publishes the update (masked with secure aggregation). */
    private static void submit(final FederatedModel model, final Device device, final GlobalModel global) {
        final LocalTraining.Update update = LocalTraining.train(model, global.weights(), device.examples, device.id, global.round());
        final String delta;
        device.submitted = global.round();
        if (model.secure()) {
            final int at = Arrays.binarySearch(global.cohort(), device.id);
            if (!global.keys()[at].equals(SecureAggregation.text(device.keys.getPublic()))) {
                System.out.println("device " + device.id + " skips round " + global.round() + ": chosen with a key of its previous run");
                return;
            }
            device.selfSeed = new byte[16];
            RANDOM.nextBytes(device.selfSeed);
            delta = Vectors.encode(SecureAggregation.mask(SecureAggregation.encode(update.delta(), update.samples()), device.id,
                    device.keys.getPrivate(), global.cohort(), global.keys(), model.name(), global.round(), device.selfSeed));
            device.maskedRound = global.round();
        } else {
            delta = Vectors.encode(update.delta());
        }
        device.publisher.publish(2 * global.round(), event(model, "UPDATE", device.id, global.round(), model.secure() ? 0 : update.samples(),
                delta));
        System.out.println("submitted device " + device.id + " round " + global.round() + " samples " + update.samples()
                + " at " + System.currentTimeMillis());
    }

    /**
     * Secure aggregation: once the round's call for corrections is out, a survivor sends its
     * correction; a device the round did not take forgets its self mask, never revealing it.
     */
    private static void correct(final StreamGridClient client, final FederatedModel model, final Device device, final GlobalModel global) {
        final UnmaskRequest request = (UnmaskRequest) client.get(model.unmaskMap(), device.maskedRound);
        if (request == null) {
            if (global != null && global.round() > device.maskedRound) {
                device.maskedRound = 0; // the round closed without a call (abandoned or empty)
                device.selfSeed = null;
            }
            return;
        }
        if (Arrays.stream(request.survivors()).anyMatch(survivor -> survivor == device.id)) {
            final long[] correction = SecureAggregation.correction(model.dimensions() + 1, device.id, device.keys.getPrivate(),
                    request.dropped(), request.droppedKeys(), model.name(), request.round(), device.selfSeed);
            device.publisher.publish(2 * request.round() + 1, event(model, "UNMASK", device.id, request.round(), 0,
                    Vectors.encode(correction)));
            System.out.println("corrected device " + device.id + " round " + request.round());
        }
        device.maskedRound = 0;
        device.selfSeed = null;
    }

    private static Event event(final FederatedModel model, final String kind, final long device, final long round, final long samples,
                               final String delta) {
        return Event.builder().set("model", model.name()).set("ts", System.currentTimeMillis()).set("kind", kind).set("device", device)
                .set("round", round).set("samples", samples).set("delta", delta).build();
    }
}
