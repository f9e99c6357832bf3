package io.streamgrid.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An application that publishes click events 1..{@code last} as publisher {@code id}, in its own
 * JVM so that a test can kill it with SIGKILL: it opens the publisher, starts {@value #REWIND}
 * sequences before the durable one (as an application re-reading its source would), and prints
 * "acknowledged up to N" (the highest acknowledged sequence) as acknowledgements come in, then a summary line.
 *
 * <p>Arguments: cluster name, member addresses (comma-separated), schema, publisher id, last
 * sequence, events per second (so that a test's kills land mid-stream).
 */
public final class PublishingApp {
    static final int REWIND = 2_000;
    private static final Pattern ACKNOWLEDGED = Pattern.compile("acknowledged up to (\\d+)");
    static final long BASE_TIME = 1_767_225_600_000L;

    private PublishingApp() {
    }

    public static void main(final String[] args) throws Exception {
        final String clusterName = args[0];
        final List<String> addresses = List.of(args[1].split(","));
        final String schema = args[2];
        final String id = args[3];
        final long last = Long.parseLong(args[4]);
        final long nanosPerEvent = 1_000_000_000L / Long.parseLong(args[5]);
        final AtomicLong appended = new AtomicLong();
        final AtomicLong duplicates = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final AtomicLong highestAcknowledged = new AtomicLong();
        try (StreamGridClient client = StreamGridClient.connect(ClientSettings.of(clusterName, addresses)
                .withConnectTimeout(Duration.ofSeconds(60)));
             Publisher publisher = client.publisher(schema, id, PublisherOptions.defaults().withDeliveryTimeout(Duration.ofSeconds(90)))) {
            System.out.println("durable " + publisher.durableSequence());
            long acknowledgedPrinted = 0;
            final long first = Math.max(1, publisher.durableSequence() - REWIND);
            final long start = System.nanoTime();
            for (long sequence = first; sequence <= last; sequence++) {
                final long due = start + (sequence - first) * nanosPerEvent;
                while (System.nanoTime() < due) {
                    java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                }
                publisher.publish(sequence, event(sequence)).whenComplete((result, error) -> {
                    if (error != null) {
                        failed.incrementAndGet();
                        System.out.println("failed: " + error.getMessage());
                    } else {
                        (result.duplicate() ? duplicates : appended).incrementAndGet();
                        highestAcknowledged.accumulateAndGet(result.sequence(), Math::max);
                    }
                });
                final long acknowledged = highestAcknowledged.get();
                if (acknowledged - acknowledgedPrinted >= 1_000) {
                    acknowledgedPrinted = acknowledged;
                    System.out.println("acknowledged up to " + acknowledged);
                }
            }
            publisher.flush();
            System.out.println("done: appended " + appended.get() + ", duplicates " + duplicates.get() + ", failed " + failed.get());
        }
        System.exit(failed.get() == 0 ? 0 : 1);
    }

    static Event event(final long sequence) {
        return Event.builder().set("user", sequence % 1_000).set("ts", BASE_TIME + sequence).set("item", sequence)
                .set("category", sequence % 7).set("action", "click").build();
    }

    /** Waits until the application has had sequence {@code sequence} (or a later one) acknowledged; returns the highest seen. */
    static long awaitAcknowledged(final Process app, final Path log, final long sequence) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            long highest = 0;
            final Matcher matcher = ACKNOWLEDGED.matcher(Files.readString(log));
            while (matcher.find()) {
                highest = Math.max(highest, Long.parseLong(matcher.group(1)));
            }
            if (highest >= sequence) {
                return highest;
            }
            if (!app.isAlive()) {
                throw new AssertionError("the application exited before sequence " + sequence + ":\n" + Files.readString(log));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("sequence " + sequence + " not acknowledged within 2 minutes:\n" + Files.readString(log));
    }
}
