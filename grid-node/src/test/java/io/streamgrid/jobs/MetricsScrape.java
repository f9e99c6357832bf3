package io.streamgrid.jobs;

import io.streamgrid.cluster.MemberProcess;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads member processes' {@code /metrics} the way Prometheus does, for the tests. */
final class MetricsScrape {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private MetricsScrape() {
    }

    /** GET /metrics, as series (name with labels) → value; asserts status 200 and the text format's content type. */
    static Map<String, Double> scrape(final MemberProcess member) throws IOException, InterruptedException {
        final HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(member.metricsUrl()))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
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
