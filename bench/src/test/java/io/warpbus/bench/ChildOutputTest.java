/*
 * Copyright 2026 the WarpBus authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.warpbus.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class ChildOutputTest
{
    private Process child;

    @AfterEach
    void killChild()
    {
        if (null != child)
        {
            child.destroyForcibly();
        }
    }

    private Process start(final String script) throws Exception
    {
        child = new ProcessBuilder("bash", "-c", script).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return child;
    }

    @Test
    void shouldHandOverTheMarkerLineAndKeepReadingWhatFollows() throws Exception
    {
        // 2 MiB after the marker: far more than a pipe holds, so the child ends only if someone reads it.
        final Process process = start("echo before; echo 'jit noise READY 41 42'; " +
            "head -c 2097152 /dev/zero | tr '\\0' 'x' | fold -w 1000; echo; echo after");
        final ByteArrayOutputStream copied = new ByteArrayOutputStream();
        final ChildOutput output = ChildOutput.follow(process, "test-child-output", "READY ",
            new PrintStream(copied, true, StandardCharsets.UTF_8));

        assertEquals("READY 41 42", output.awaitMarker(30));
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the child blocked on its output");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!copied.toString(StandardCharsets.UTF_8).endsWith("after\n") && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        final String text = copied.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("before\n"), text.substring(0, Math.min(100, text.length())));
        assertTrue(text.endsWith("after\n"), "the last line was not copied");
        assertFalse(text.contains("READY"), "the marker's line is the caller's, not copied");
        assertTrue(text.length() > 2_097_152, "copied " + text.length() + " characters");
    }

    @Test
    void shouldSayWhenTheChildEndsWithoutTheMarker() throws Exception
    {
        final ChildOutput output = ChildOutput.follow(start("echo starting; exit 3"), "test-child-output",
            "READY ", null);

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> output.awaitMarker(30));
        assertTrue(ex.getMessage().contains("ended before printing 'READY'"), ex.getMessage());
        assertTrue(ex.getMessage().contains("exit code 3"), ex.getMessage());
    }

    @Test
    void shouldStopWaitingForASilentChild() throws Exception
    {
        final ChildOutput output = ChildOutput.follow(start("exec sleep 50"), "test-child-output", "READY ", null);

        final long start = System.nanoTime();
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> output.awaitMarker(1));
        assertTrue(ex.getMessage().contains("did not print 'READY' within 1 s"), ex.getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "waited far past the timeout");
    }
}
