package io.streamgrid.examples.fraud;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A generated stream of payments and outcomes with its truth, for tests, demos and benchmarks —
 * and the oracle, computed here apart from the jobs: each payment's features from the user's earlier
 * payments, and the weights an offline SGD reaches over labels in a given order.
 *
 * <p>Each of {@code users} users pays about every two minutes of event time, payments up to 2 s
 * out of event-time order (the scoring job allows 5 s). Fraud is rare (2 %) except at merchant
 * categories 6 and 7 (15 %); a fraudulent payment is about six times larger, and a third of them
 * start a burst — two to four more payments of the user within two minutes, mostly fraudulent. A share of the payments get an
 * outcome 6–60 s of event time later — after every payment that arrived before theirs, so a
 * merge in event time always meets the payment first — and a few outcomes name payments that
 * never happened (orphans). Seeded: the same arguments give the same stream.
 */
public final class PaymentStream {
    /** An event as it arrives: a payment or an outcome. */
    public sealed interface Event permits Payment, Outcome {
        long ts();
    }

    public record Payment(long user, long ts, long txn, double amount, int category, boolean fraud) implements Event {
    }

    public record Outcome(long user, long ts, long txn, boolean fraud) implements Event {
    }

    private final List<Event> events = new ArrayList<>();
    private final Map<Long, Payment> payments = new LinkedHashMap<>();
    private final Map<Long, Boolean> labels = new HashMap<>();
    private final List<Outcome> orphans = new ArrayList<>();

    /**
     * @param startMs       event time of the first payment. For a stream appended while jobs run, take
     *                      the wall clock: a quiet log's heartbeat moves its clock to the wall clock
     *                      (see the time policy's idle timeout), which would make older events late
     * @param labelledShare the share of payments that get an outcome
     * @param orphanCount   outcomes of payments that do not exist
     */
    public PaymentStream(final long seed, final long startMs, final int users, final int paymentCount, final double labelledShare,
                         final int orphanCount) {
        this(seed, startMs, users, paymentCount, labelledShare, orphanCount, Long.MAX_VALUE);
    }

    /**
     * As above, with a drift: from event time {@code shiftAtMs} on, a fraud ring also works at
     * merchant categories 0 and 1 — 40 % of their payments are fraudulent, at ordinary amounts — so
     * the fraud rate rises and a model trained before misses them.
     */
    public PaymentStream(final long seed, final long startMs, final int users, final int paymentCount, final double labelledShare,
                         final int orphanCount, final long shiftAtMs) {
        final SplittableRandom random = new SplittableRandom(seed);
        final PriorityQueue<Outcome> due = new PriorityQueue<>((a, b) -> Long.compare(a.ts(), b.ts()));
        final PriorityQueue<long[]> bursts = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0])); // {time, user}
        final int step = Math.max(2, 2 * 120_000 / users); // each user pays about every two minutes
        long clock = startMs;
        for (int i = 0; i < paymentCount; i++) {
            clock += 1 + random.nextInt(step);
            while (!due.isEmpty() && due.peek().ts() <= clock) {
                events.add(due.poll());
            }
            final boolean burst = !bursts.isEmpty() && bursts.peek()[0] <= clock;
            final long user = burst ? bursts.poll()[1] : random.nextInt(users);
            final int category = random.nextInt(Features.CATEGORIES);
            final boolean ring = clock >= shiftAtMs && category <= 1;
            final boolean fraud = burst ? random.nextInt(4) > 0 : random.nextDouble() < (ring ? 0.4 : category >= 6 ? 0.15 : 0.02);
            if (fraud && !burst && random.nextInt(3) == 0) {
                for (int k = random.nextInt(2, 5); k > 0; k--) { // a card being drained: a few more within two minutes
                    bursts.add(new long[] {clock + random.nextInt(5_000, 120_000), user});
                }
            }
            final double amount = Math.round(Math.exp(3.5 + random.nextGaussian() * 0.8) * (fraud && !ring ? 6 : 1) * 100) / 100.0;
            final long ts = clock - random.nextInt(2_000);
            final Payment payment = new Payment(user, ts, i, amount, category, fraud);
            events.add(payment);
            payments.put(payment.txn(), payment);
            if (random.nextDouble() < labelledShare) {
                due.add(new Outcome(user, clock + 6_000 + random.nextInt(54_000), i, fraud));
                labels.put(payment.txn(), fraud);
            }
            if (orphanCount > 0 && i % Math.max(1, paymentCount / orphanCount) == 0 && orphans.size() < orphanCount) {
                final Outcome orphan = new Outcome(user, clock + 6_000, 1_000_000_000L + i, false);
                due.add(orphan);
                orphans.add(orphan);
            }
        }
        while (!due.isEmpty()) {
            events.add(due.poll());
        }
    }

    /** Every event in arrival order. */
    public List<Event> events() {
        return events;
    }

    /** Payments by txn, in arrival order. */
    public Map<Long, Payment> payments() {
        return payments;
    }

    /** The label of each payment that gets an outcome. */
    public Map<Long, Boolean> labels() {
        return labels;
    }

    public List<Outcome> orphans() {
        return orphans;
    }

    /** Appends events {@code from} (inclusive) to {@code to} (exclusive) to their logs, in arrival order. */
    public void append(final SchemaLog paymentLog, final SchemaLog outcomeLog, final int from, final int to) {
        final SchemaRecord payment = new SchemaRecord(Payments.PAYMENT.layout());
        final SchemaRecord outcome = new SchemaRecord(Payments.OUTCOME.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[Math.max(payment.layout().length(), outcome.layout().length())]);
        for (int i = from; i < to; i++) {
            if (events.get(i) instanceof Payment p) {
                paymentLog.append(payment.wrapForWrite(buffer, 0).sequence(i).setLong(0, p.user()).setTimestamp(1, p.ts())
                        .setLong(2, p.txn()).setDouble(3, p.amount()).setInt(4, p.category()));
            } else if (events.get(i) instanceof Outcome o) {
                outcomeLog.append(outcome.wrapForWrite(buffer, 0).sequence(i).setLong(0, o.user()).setTimestamp(1, o.ts())
                        .setLong(2, o.txn()).setBoolean(3, o.fraud()));
            }
        }
    }

    /**
     * The oracle's features of every payment: per user, in arrival order, from the user's payments
     * that arrived before it with event times from an hour (10 minutes) before it up to it.
     */
    public Map<Long, Features> expectedFeatures() {
        final Map<Long, List<Payment>> earlier = new HashMap<>();
        final Map<Long, Features> features = new HashMap<>();
        for (final Payment p : payments.values()) {
            final List<Payment> before = earlier.computeIfAbsent(p.user(), u -> new ArrayList<>());
            double sum = 0;
            int hour = 0;
            int tenMinutes = 0;
            for (final Payment b : before) {
                if (b.ts() <= p.ts() && p.ts() - b.ts() <= 3_600_000) {
                    sum += b.amount();
                    hour++;
                    tenMinutes += p.ts() - b.ts() <= 600_000 ? 1 : 0;
                }
            }
            final long since = before.isEmpty() ? -1 : Math.max(0, p.ts() - before.get(before.size() - 1).ts());
            features.put(p.txn(), new Features(p.amount(), hour == 0 ? 0 : sum / hour, tenMinutes, since, p.category()));
            before.add(p);
        }
        return features;
    }

    /**
     * The weights of logistic regression after one SGD step per label, over {@code order} (txns)
     * with the oracle's features — written apart from {@link LogisticModel} and {@link Features#vector}.
     */
    public double[] offlineWeights(final List<Long> order, final double rate, final double l2) {
        final Map<Long, Features> features = expectedFeatures();
        final double[] w = new double[Features.DIMENSIONS];
        for (final long txn : order) {
            final double[] x = oracleVector(features.get(txn));
            double dot = 0;
            for (int i = 0; i < w.length; i++) {
                dot += w[i] * x[i];
            }
            final double error = 1 / (1 + Math.exp(-dot)) - (labels.get(txn) ? 1 : 0);
            for (int i = 0; i < w.length; i++) {
                w[i] = w[i] - rate * (error * x[i] + (i == 0 ? 0 : l2 * w[i]));
            }
        }
        return w;
    }

    /** The largest difference between two weight vectors of the same length: how far a job's weights are from the oracle's. */
    public static double largestDifference(final double[] expected, final double[] found) {
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            worst = Math.max(worst, Math.abs(expected[i] - found[i]));
        }
        return worst;
    }

    /** The score {@code weights} give each payment, from the oracle's features — written apart from the scoring job. */
    public Map<Long, Double> offlineScores(final double[] weights) {
        final Map<Long, Double> scores = new HashMap<>();
        expectedFeatures().forEach((txn, f) -> {
            final double[] x = oracleVector(f);
            double dot = 0;
            for (int i = 0; i < weights.length; i++) {
                dot += weights[i] * x[i];
            }
            scores.put(txn, 1 / (1 + Math.exp(-dot)));
        });
        return scores;
    }

    /** The model's inputs as {@link FraudScoringJob} documents them, computed here on their own. */
    private static double[] oracleVector(final Features f) {
        final double[] x = new double[Features.DIMENSIONS];
        x[0] = 1;
        x[1] = f.amount() / 1_000;
        x[2] = f.avgAmount1h() > 0 ? Math.min(f.amount() / f.avgAmount1h(), 10) / 10 : 0.1;
        x[3] = Math.min(f.count10m(), 20) / 20.0;
        x[4] = f.sincePreviousMs() < 0 ? 1 : Math.min(f.sincePreviousMs(), 86_400_000L) / 86_400_000.0;
        x[5 + f.merchantCategory()] = 1;
        return x;
    }
}
