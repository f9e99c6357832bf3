package io.streamgrid.node.impl;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.NodeState;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.metrics.JobMetrics;
import com.hazelcast.map.IMap;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.streamgrid.client.SubscriptionReport;
import io.streamgrid.cq.ValueFields;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The member's live status page: {@code GET /} (or {@code /status}) is a static page whose script
 * polls {@code GET /status.json} every two seconds and draws the charts itself (inline SVG, no
 * library, nothing to build). Any member serves the whole cluster's view: members and their
 * partitions, safety, jobs with their cluster-wide counters (Jet's job metrics, which Jet
 * collects from every member every few seconds), the clients' continuous-query subscriptions (as
 * they report themselves, {@link SubscriptionReport}) and the alert maps.
 *
 * <p>The job charts' history is kept here, a sample per job and metrics collection, taken only
 * when the page asks (no thread of its own): the last {@value #HISTORY} samples, so a page opened
 * later still shows the last minutes — for the jobs Jet lists that still run, and the
 * {@value #FINISHED_KEPT} that finished last (replays and resubmissions add names without end).
 */
final class StatusPage implements HttpHandler {
    private static final Logger LOG = Logger.getLogger(StatusPage.class.getName());
    private static final int HISTORY = 300;
    /** Finished jobs whose history is kept. */
    private static final int FINISHED_KEPT = 10;
    private static final long SAMPLE_EVERY_MS = 1_000;
    private static final int ALERTS_SHOWN = 8;
    /** Processor watermarks shown per job, the lowest ones. */
    private static final int WATERMARKS_SHOWN = 6;
    /** Where status.html takes the status of its first paint. */
    private static final String INITIAL_STATUS = "/*INITIAL_STATUS*/null";

    /** How long one status.json answer serves repeated polls (any number of open pages costs one computation per interval). */
    private static final long JSON_FRESH_MS = 500;
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final HazelcastInstance hazelcast;
    private final String page;
    /** What the member's persisted state still waits for; null once loaded. */
    private final Supplier<String> waitingFor;
    /** Host names (lower case) the page answers to besides IP literals and localhost: the bound host and this machine's name. */
    private final Set<String> ownNames;
    private String lastJson;
    private long lastJsonMs;
    /** Job name → its samples, oldest first. */
    private final Map<String, ArrayDeque<JobFigures>> history = new HashMap<>();
    private long lastSampleMs;
    /** Job name → its lowest processor watermarks at the last sample (at most {@value #WATERMARKS_SHOWN}). */
    private final Map<String, List<Map.Entry<String, Long>>> lowestWatermarks = new HashMap<>();

    StatusPage(final HazelcastInstance hazelcast, final String boundHost, final Supplier<String> waitingFor) {
        this.hazelcast = hazelcast;
        this.waitingFor = waitingFor;
        final Set<String> names = new HashSet<>();
        names.add(boundHost.toLowerCase(Locale.ROOT));
        try {
            names.add(InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT));
        } catch (final IOException noName) {
            LOG.fine("this machine's host name is unknown: the status page answers to addresses and localhost only");
        }
        this.ownNames = Set.copyOf(names);
        try (InputStream in = StatusPage.class.getResourceAsStream("/status.html")) {
            if (in == null) {
                throw new IllegalStateException("status.html is missing from the grid-node jar");
            }
            this.page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (!page.contains(INITIAL_STATUS)) {
                throw new IllegalStateException("status.html has no " + INITIAL_STATUS + " for the status of its first paint");
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void handle(final HttpExchange exchange) throws IOException {
        try (exchange) {
            final String path = exchange.getRequestURI().getPath();
            final String host = exchange.getRequestHeaders().getFirst("Host");
            if (!isOwnName(host)) {
                // DNS rebinding: a page of another site whose name now resolves to this address must not read it.
                send(exchange, 421, "text/plain; charset=utf-8", ("Host " + host + " is not a name of this member: use its address, "
                        + "localhost or its host name\n").getBytes(StandardCharsets.UTF_8));
            } else if (!"GET".equals(exchange.getRequestMethod())) {
                send(exchange, 405, "text/plain; charset=utf-8", "GET only\n".getBytes(StandardCharsets.UTF_8));
            } else if (path.equals("/") || path.equals("/status")) {
                send(exchange, 200, "text/html; charset=utf-8", pageWithStatus());
            } else if (path.equals("/status.json")) {
                send(exchange, 200, "application/json", json().getBytes(StandardCharsets.UTF_8));
            } else if (path.equals("/ready")) {
                final String notReady = notReady();
                send(exchange, notReady == null ? 200 : 503, "text/plain; charset=utf-8",
                        (notReady == null ? "ready\n" : "not ready: " + notReady + "\n").getBytes(StandardCharsets.UTF_8));
            } else {
                send(exchange, 404, "text/plain; charset=utf-8",
                        "not here: / (status page), /status.json, /ready, /metrics\n".getBytes(StandardCharsets.UTF_8));
            }
        } catch (final RuntimeException e) {
            LOG.log(Level.WARNING, "status page request failed", e);
            throw e;
        }
    }

    /**
     * The page with the status as it is now written into it, so that its first paint shows the
     * cluster rather than an empty frame waiting for the first poll. When the status cannot be
     * computed (the member is stopping), the page starts empty and its polls say what they find.
     */
    private byte[] pageWithStatus() {
        String status;
        try {
            // "</" inside the script's JSON would end the script element early.
            status = json().replace("</", "<\\/");
        } catch (final RuntimeException e) {
            LOG.log(Level.FINE, "no status for the page's first paint", e);
            status = "null";
        }
        return page.replace(INITIAL_STATUS, status).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Why this member is not ready, or null when it is: running, ACTIVE, and its persisted state
     * loaded (Hazelcast's own {@code /hazelcast/health/ready} knows nothing of the latter).
     */
    private String notReady() {
        if (!hazelcast.getLifecycleService().isRunning()) {
            return "the member is shutting down";
        }
        final NodeState state = HazelcastInternals.node(hazelcast).getState();
        if (state != NodeState.ACTIVE) {
            return "the member is " + state;
        }
        final String waiting = waitingFor.get();
        return waiting == null ? null : "waiting for " + waiting;
    }

    /**
     * Whether a request's Host header names this member: an IP literal (no DNS name, so nothing to
     * rebind), localhost, the address the endpoint is bound to or this machine's host name.
     */
    boolean isOwnName(final String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) {
            return false;
        }
        String name = hostHeader.trim().toLowerCase(Locale.ROOT);
        if (name.startsWith("[")) {
            final int end = name.indexOf(']');
            return end > 0; // an IPv6 literal
        }
        final int colon = name.lastIndexOf(':');
        if (colon >= 0) {
            name = name.substring(0, colon);
        }
        return name.equals("localhost") || ownNames.contains(name) || IPV4.matcher(name).matches();
    }


    private static void send(final HttpExchange exchange, final int status, final String type, final byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** The cluster as this member sees it, with each job's sample history. */
    synchronized String json() {
        final long now = System.currentTimeMillis();
        if (lastJson != null && now - lastJsonMs < JSON_FRESH_MS) {
            return lastJson;
        }
        lastJson = freshJson(now);
        lastJsonMs = now;
        return lastJson;
    }

    private String freshJson(final long now) {
        final List<Job> jobs = hazelcast.getJet().getJobs();
        if (now - lastSampleMs >= SAMPLE_EVERY_MS) {
            sample(jobs);
            lastSampleMs = now;
        }
        final Map<Member, Integer> owned = ClusterView.partitionsByMember(hazelcast);
        final List<Object> members = new ArrayList<>();
        for (final Member member : hazelcast.getCluster().getMembers()) {
            members.add(ordered("address", member.getAddress().getHost() + ":" + member.getAddress().getPort(),
                    "partitions", owned.getOrDefault(member, 0), "serving", member.localMember()));
        }
        final List<Object> jobList = new ArrayList<>();
        for (final Job job : jobs) {
            final ArrayDeque<JobFigures> samples = history.get(job.getName());
            if (samples == null) {
                continue; // finished before this page looked
            }
            final List<Object> rows = new ArrayList<>(samples.size());
            samples.forEach(s -> rows.add(List.of(s.collectedAtMs(), s.eventsIn(), s.late(), s.rejected(), s.results(), s.watermarkMs(),
                    s.snapshotMillis())));
            final List<Object> watermarks = new ArrayList<>();
            if (!job.getStatus().isTerminal()) {
                lowestWatermarks.getOrDefault(job.getName(), List.of()).forEach(w -> watermarks.add(List.of(w.getKey(), w.getValue())));
            }
            jobList.add(ordered("name", job.getName(), "status", job.getStatus().name(), "samples", rows, "watermarks", watermarks));
        }
        final List<Object> alerts = new ArrayList<>();
        for (final DistributedObject object : hazelcast.getDistributedObjects()) {
            if (object instanceof IMap<?, ?> map && map.getName().startsWith("state.") && map.getName().endsWith("alerts")) {
                // The first few entries the map's iterator fetches, not the whole map: an alerts map can be large.
                // Each shown as its key and its fields as people read them (times in UTC, doubles rounded), in key order.
                final List<Map.Entry<String, Object>> some = new ArrayList<>();
                final Iterator<? extends Map.Entry<?, ?>> entries = map.iterator(ALERTS_SHOWN);
                while (some.size() < ALERTS_SHOWN && entries.hasNext()) {
                    final Map.Entry<?, ?> entry = entries.next();
                    some.add(Map.entry(String.valueOf(entry.getKey()), entry.getValue()));
                }
                some.sort(Map.Entry.comparingByKey());
                final List<Object> rows = new ArrayList<>(some.size());
                for (final Map.Entry<String, Object> entry : some) {
                    final Map<String, Object> fields = new LinkedHashMap<>();
                    ValueFields.of(entry.getValue()).forEach((field, value) -> fields.put(field, FieldText.cell(field, value)));
                    rows.add(ordered("key", entry.getKey(), "fields", fields));
                }
                alerts.add(ordered("map", map.getName(), "count", map.size(), "some", rows));
            }
        }
        final List<Object> subscriptions = new ArrayList<>();
        for (final SubscriptionReport r : ClusterView.subscriptions(hazelcast)) {
            subscriptions.add(ordered("map", r.map(), "where", r.where(), "client", r.client(), "state", r.state(),
                    "delivered", r.delivered(), "resyncs", r.resyncs(), "overflows", r.overflows(), "queued", r.queued(),
                    "ageMs", now - r.reportedAtMs()));
        }
        final Map<String, Object> status = new LinkedHashMap<>();
        status.put("time", now);
        status.put("watermarkLagMeaning", JobFigures.WATERMARK_LAG_MEANING);
        status.put("clusterSafe", hazelcast.getPartitionService().isClusterSafe());
        status.put("members", members);
        status.put("jobs", jobList);
        status.put("subscriptions", subscriptions);
        status.put("alerts", alerts);
        return JsonText.of(status);
    }

    /** A JSON object with its fields in the order given (name, value, name, value, ...). */
    private static Map<String, Object> ordered(final Object... namesAndValues) {
        final Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            object.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return object;
    }

    /** Adds a sample per job when Jet has collected its metrics again since the last one ({@link JobFigures}). */
    private void sample(final List<Job> jobs) {
        for (final Job job : jobs) {
            if (job.getStatus().isTerminal() && !history.containsKey(job.getName())) {
                continue;
            }
            final JobMetrics metrics = job.getMetrics(); // one fetch for the figures and the watermarks
            final JobFigures figures = JobFigures.of(metrics);
            lowestWatermarks.put(job.getName(), JobFigures.processorWatermarks(metrics).stream().limit(WATERMARKS_SHOWN).toList());
            final ArrayDeque<JobFigures> samples = history.computeIfAbsent(job.getName(), name -> new ArrayDeque<>());
            if (figures == null || !samples.isEmpty() && samples.getLast().collectedAtMs() >= figures.collectedAtMs()) {
                continue; // nothing collected yet, or nothing new
            }
            samples.addLast(figures);
            if (samples.size() > HISTORY) {
                samples.removeFirst();
            }
        }
        forgetFinished(jobs);
    }

    /** Drops the history of jobs Jet no longer lists, and of finished ones but the {@value #FINISHED_KEPT} last sampled. */
    private void forgetFinished(final List<Job> jobs) {
        final Set<String> running = new HashSet<>();
        final Set<String> listed = new HashSet<>();
        for (final Job job : jobs) {
            listed.add(job.getName());
            if (!job.getStatus().isTerminal()) {
                running.add(job.getName());
            }
        }
        history.keySet().retainAll(listed);
        lowestWatermarks.keySet().retainAll(history.keySet());
        final List<String> finished = new ArrayList<>();
        history.forEach((name, samples) -> {
            if (!running.contains(name)) {
                finished.add(name);
            }
        });
        finished.sort(Comparator.comparingLong((String name) -> lastSampleMs(history.get(name))).reversed());
        finished.subList(Math.min(FINISHED_KEPT, finished.size()), finished.size()).forEach(history::remove);
    }

    private static long lastSampleMs(final ArrayDeque<JobFigures> samples) {
        final JobFigures last = samples.peekLast();
        return last == null ? 0 : last.collectedAtMs();
    }
}
