package io.streamgrid.jobs;

import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** Base of job tests on one embedded member: a temp directory, the member, its shutdown. */
public abstract class EmbeddedMemberTest {
    @TempDir
    protected Path dir;
    protected HazelcastInstance member;

    /** Starts the member (after the test has written its ingest log). */
    protected HazelcastInstance startMember() {
        member = JobTestSupport.embeddedMember();
        return member;
    }

    @AfterEach
    void stopMember() {
        if (member != null) {
            member.shutdown();
        }
    }
}
