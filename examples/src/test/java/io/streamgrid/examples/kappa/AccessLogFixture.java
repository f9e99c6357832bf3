package io.streamgrid.examples.kappa;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A generated web access log with its truth: {@code count} lines (Common and Combined format mixed)
 * of 500 users, 20 of them unknown to {@code dim.users}, with about 1 % malformed lines of five
 * kinds; whole-second times that never go back.
 *
 * @param lines           the file's lines
 * @param valid           the valid requests, in line order
 * @param badReasons      per malformed line, a word its rejection reason contains
 * @param unknownRequests valid requests of users not in {@link #users}
 * @param users           the dimension: the known users' profiles
 */
record AccessLogFixture(List<String> lines, List<AccessLogs.Request> valid, List<String> badReasons, long unknownRequests,
                        Map<String, UserProfile> users) {
    private static final DateTimeFormatter CLF_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);
    private static final String[] METHODS = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
    private static final int USERS = 500;
    private static final int KNOWN = 480;

    private static String user(final int u) {
        return "user-" + u;
    }

    static AccessLogFixture generate(final long seed, final int count) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<String> lines = new ArrayList<>();
        final List<AccessLogs.Request> valid = new ArrayList<>();
        final List<String> badReasons = new ArrayList<>();
        long unknownRequests = 0;
        long time = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
        for (int i = 0; i < count; i++) {
            time += random.nextInt(0, 50) / 1000 * 1000 + 1000 * random.nextInt(0, 2); // whole seconds: CLF has no millis
            final int u = random.nextInt(USERS);
            final String method = METHODS[random.nextInt(METHODS.length)];
            final String path = "/items/" + random.nextInt(1_000);
            final int status = random.nextInt(100) < 5 ? 503 : random.nextInt(100) < 10 ? 404 : 200;
            final long bytes = random.nextInt(50) == 0 ? -1 : random.nextInt(1, 50_000); // -1: no body
            final int bad = random.nextInt(500);
            final String stamp = "[" + CLF_TIME.format(Instant.ofEpochMilli(time)) + "]";
            final AccessLogs.Request request = new AccessLogs.Request("10.0." + (u % 250) + "." + (i % 250), user(u), time, method,
                    path, status, bytes);
            String line = request.line(i % 2 == 0);
            if (bad == 0) {
                line = "garbage that is no request " + i;
                badReasons.add("not a Common or Combined Log Format line");
            } else if (bad == 1) {
                line = line.replace(stamp, "[32/Foo/2026:99:00:00 +0000]");
                badReasons.add("request time");
            } else if (bad == 2) {
                line = line.replace("\"" + method + " ", "\"FETCH ");
                badReasons.add("method");
            } else if (bad == 3) {
                line = line.replace(path, "/" + "x".repeat(250));
                badReasons.add("path");
            } else if (bad == 4) {
                line = line.replace(" " + user(u) + " ", " - ");
                badReasons.add("user");
            } else {
                valid.add(request);
                unknownRequests += u >= KNOWN ? 1 : 0;
            }
            lines.add(line);
        }
        final Map<String, UserProfile> users = new HashMap<>();
        for (int u = 0; u < KNOWN; u++) {
            users.put(user(u), new UserProfile(user(u), country(user(u)), segment(user(u)), 20_000 + u));
        }
        return new AccessLogFixture(lines, valid, badReasons, unknownRequests, users);
    }

    /** The requests (valid, of any user) whose time is {@code fromMillis} or later. */
    List<AccessLogs.Request> validFrom(final long fromMillis) {
        return valid.stream().filter(r -> r.epochMillis() >= fromMillis).toList();
    }

    private static String country(final String user) {
        return new String[] {"DE", "FR", "US", "JP", "BR"}[Math.floorMod(user.hashCode(), 5)];
    }

    private static String segment(final String user) {
        return Math.floorMod(user.hashCode(), 3) == 0 ? "enterprise" : "consumer";
    }
}
