package io.streamgrid.jobs.keyed;

import java.util.Objects;

/**
 * A parameter a {@link StreamGridJob} takes from whoever submits it: {@code streamgrid job submit
 * NAME --param name=value}. The CLI offers the parameters a job declares and refuses others, naming
 * the ones there are.
 *
 * @param name        the name after {@code --param}, lower case words joined by '-' (e.g. {@code model-version})
 * @param description one line: what the value does and its form, shown when a parameter is missing or wrong
 */
public record JobParameter(String name, String description) {
    public JobParameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        if (!name.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("a parameter name is lower case words joined by '-', was '" + name + "'");
        }
    }
}
