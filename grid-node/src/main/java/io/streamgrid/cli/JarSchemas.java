package io.streamgrid.cli;

import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.impl.ConfigTree;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * {@code --jar FILE --class CLASS} beside {@code --schema NAME} (picocli mixin): the schema as your
 * job declares it in Java ({@link JobDefinition#declaredSchemas()}), so that a schema declared for
 * the job needs no second declaration in the configuration's {@code schemas:} section.
 */
final class JarSchemas {
    @Option(names = "--jar", paramLabel = "FILE",
            description = "With --schema: your job's jar; the schema is the one its job declares (read, emitted or looked up).")
    Path jar;

    @Option(names = "--class", paramLabel = "CLASS", description = "With --jar: your job's class in the jar (implements StreamGridJob).")
    String className;

    /** Without {@code --schema} (the built-in types' logs), a jar has nothing to say: refused rather than ignored. */
    void refuseWithoutSchema() {
        if (jar != null || className != null) {
            throw new ConfigException("--jar and --class go with --schema NAME: they name the job that declares that schema");
        }
    }

    /**
     * The schema called {@code name}: the job's in the jar when {@code --jar} is given, else a
     * built-in type's or the configuration's ({@link IngestCommand#schema}).
     */
    EventSchema schema(final ConfigTree tree, final String name) {
        if (jar == null && className == null) {
            return IngestCommand.schema(tree, name);
        }
        if (jar == null || className == null) {
            throw new ConfigException("--jar and --class go together: the jar, and the class in it whose job declares schema " + name);
        }
        final JobDefinition job = UserJar.load(jar, className, UnaryOperator.identity()).job();
        return job.declaredSchemas().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new ConfigException("--schema " + name + ": job " + job.name() + " (" + className + " in "
                        + jar.getFileName() + ") declares no such schema; it declares "
                        + job.declaredSchemas().stream().map(EventSchema::name).toList()));
    }
}
