package io.streamgrid.jobs;

import io.streamgrid.cluster.MemberProcess;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads member processes' {@code /metrics} (and the status page's data) the way Prometheus and a browser do, for the tests. */
public final class MetricsScrape {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "streamgrid-dashboard.json");

    private MetricsScrape() {
    }

    /** GET {@code url}; asserts status 200. */
    public static HttpResponse<String> get(final String url) throws IOException, InterruptedException {
        final HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET " + url).isEqualTo(200);
        return response;
    }

    /** GET /metrics, as series (name with labels) → value; asserts the text format's content type. */
    public static Map<String, Double> scrape(final MemberProcess member) throws IOException, InterruptedException {
        final HttpResponse<String> response = get(member.metricsUrl());
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        final Map<String, Double> series = new LinkedHashMap<>();
        for (final String line : response.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            final int space = line.lastIndexOf(' ');
            series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return series;
    }

    /** The names (without labels) of the series {@code member} serves. */
    static Set<String> names(final MemberProcess member) throws IOException, InterruptedException {
        final Set<String> names = new TreeSet<>();
        scrape(member).keySet().forEach(series -> names.add(series.replaceFirst("\\{.*", "")));
        return names;
    }

    /** The metric names the Grafana dashboard's queries use. */
    static Set<String> dashboardMetricNames() throws IOException {
        final Matcher names = Pattern.compile("\\b(?:streamgrid|jvm)_[a-z_]+").matcher(Files.readString(DASHBOARD));
        final Set<String> found = new TreeSet<>();
        while (names.find()) {
            found.add(names.group());
        }
        return found;
    }

    /** The sum over {@code members} of the series named {@code name} whose labels contain {@code labelText}. */
    static double sum(final List<MemberProcess> members, final String name, final String labelText) throws IOException,
            InterruptedException {
        double total = 0;
        for (final MemberProcess member : members) {
            for (final Map.Entry<String, Double> series : scrape(member).entrySet()) {
                final String key = series.getKey();
                final boolean named = key.equals(name) || key.startsWith(name + "{");
                if (named && key.contains(labelText)) {
                    total += series.getValue();
                }
            }
        }
        return total;
    }
}
