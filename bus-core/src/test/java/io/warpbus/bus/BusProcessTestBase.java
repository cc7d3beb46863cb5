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
package io.warpbus.bus;

import io.warpbus.testing.BusTestWatcher;
import io.warpbus.testing.ChildProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the multi-process tests share: starting publisher and subscriber JVMs ({@link BusTestProcess}) on the
 * transport of the subclass, reading their event lines, and killing every child after each test. Every child's
 * output lands in {@code target/process-tests/CLASS/TEST/} and its tail is in every failure message.
 */
@Timeout(60)
@ExtendWith(BusTestWatcher.class)
abstract class BusProcessTestBase
{
    static final long LIVENESS_MS = 1500;
    static final Pattern SENT = Pattern.compile("SENT (\\d+) checksum=(\\w+) (.*)");
    static final Pattern FIELD = Pattern.compile("([a-z-]+)=(\\S+)");
    static final Pattern PROGRESSED = Pattern.compile("PROGRESS sub=0 .* received=[1-9].*");
    static final int MILLIONS = 2_000_000;
    /** An image lost for any reason but the normal end of the stream. */
    static final Pattern LOST_IMAGE = Pattern.compile("UNAVAILABLE (?!.*end of stream).*");

    @TempDir
    Path dir;
    Path logs;
    final List<ChildProcess> children = new ArrayList<>();
    final ChildProcess.Evidence evidence = this::dumpAll;
    private String testName;

    @BeforeEach
    void nameLogs(final TestInfo info)
    {
        testName = info.getTestMethod().map(java.lang.reflect.Method::getName).orElse("test");
        logs = Path.of("target", "process-tests", getClass().getSimpleName(), testName);
    }

    @AfterEach
    void killChildren()
    {
        for (final ChildProcess child : children)
        {
            child.close();
        }
        children.clear();
    }

    /**
     * The channel of a stream on this transport, without options.
     *
     * @param streamId the stream.
     * @return the channel URI.
     */
    abstract String channel(int streamId);

    @Test
    @Timeout(120)
    void shouldDeliverMillionsOfMessagesInOrderExactlyOnceBetweenProcesses() throws InterruptedException
    {
        final String channel = channel(1001);
        final ChildProcess subscriber = subscriber("sub", channel, "count=" + MILLIONS);
        final ChildProcess publisher = publisher("pub", channel, "count=" + MILLIONS, "size=64");

        final Map<String, String> sent = awaitSent(publisher, 90_000);
        final Map<String, String> done = awaitDone(subscriber, 0, 10_000);
        assertReceivedEverything("subscriber", done, sent);
        assertEquals(0, publisher.awaitExit(10_000, evidence));
        assertEquals(0, subscriber.awaitExit(10_000, evidence));
    }

    @Test
    void shouldFanOutEverythingToFourSubscribersInTwoProcesses() throws InterruptedException
    {
        final String channel = channel(1002);
        final int count = 300_000;
        final ChildProcess three = subscriber("sub-three", channel, "count=" + count, "subscriptions=3");
        final ChildProcess one = subscriber("sub-one", channel, "count=" + count);
        final ChildProcess publisher = publisher("pub", channel, "count=" + count, "wait-subscribers=4");

        final Map<String, String> sent = awaitSent(publisher, 30_000);
        for (int i = 0; i < 3; i++)
        {
            assertReceivedEverything("sub-three subscription " + i, awaitDone(three, i, 10_000), sent);
        }
        assertReceivedEverything("sub-one", awaitDone(one, 0, 10_000), sent);
    }

    @Test
    void shouldBackPressureThePublisherWithoutLossForASlowBlockingSubscriber() throws InterruptedException
    {
        final String channel = channel(1003);
        final int count = 100_000;
        final ChildProcess slow = subscriber("sub-slow", channel + "|policy=block", "count=" + count,
            "slow-every=200", "slow-ms=1");
        final ChildProcess publisher = publisher("pub", channel, "count=" + count);

        final Map<String, String> sent = awaitSent(publisher, 30_000);
        assertReceivedEverything("slow blocking subscriber", awaitDone(slow, 0, 10_000), sent);
        assertTrue(Long.parseLong(sent.get("backpressured")) > 0,
            "the publisher never saw BACK_PRESSURED: " + sent + dumpAll());
        assertEquals("0", sent.get("notconnected"), "offers refused as NOT_CONNECTED: " + sent + dumpAll());
    }

    @Test
    void shouldDropASlowSubscriberThatResumesWithoutHurtingAFastOne() throws InterruptedException
    {
        final String channel = channel(1004);
        final int count = 150_000;
        final ChildProcess fast = subscriber("sub-fast", channel, "count=" + count);
        final ChildProcess slow = subscriber("sub-slow", channel + "|policy=drop", "count=" + count,
            "pause-after=5000", "pause-ms=1000");
        final ChildProcess publisher = publisher("pub", channel + "|lag=128k|window=1m", "count=" + count,
            "rate=50000", "wait-subscribers=2");

        final Map<String, String> sent = awaitSent(publisher, 30_000);
        assertReceivedEverything("fast subscriber", awaitDone(fast, 0, 10_000), sent);
        final Map<String, String> done = awaitDone(slow, 0, 10_000);
        final String context = "slow subscriber " + done + dumpAll();
        final List<Matcher> dropped = slow.matches(
            Pattern.compile("UNAVAILABLE sub=0 (?!.*end of stream).*reason=(.*)"));
        assertFalse(dropped.isEmpty(), "the slow subscriber was never dropped: " + context);
        assertTrue(dropped.get(0).group(1).contains("slow consumer"), "reason: " + context);
        assertTrue(slow.matches(Pattern.compile("AVAILABLE sub=0 .*")).size() > dropped.size(),
            "the slow subscriber did not reconnect after each drop: " + context);
        assertEquals("0", done.get("errors"), "order, sequence or content errors: " + context);
        assertEquals(String.valueOf(count - 1), done.get("through"),
            "the last message, read or reported missing (a rejoin past the end): " + context);
        assertEquals(done.get("skipped"), done.get("missing"),
            "messages skipped without a gap reported by onGap (or reported and delivered): " + context);
        assertEquals(count, Long.parseLong(done.get("received")) + Long.parseLong(done.get("missing")),
            "received plus reported missing: " + context);
        if ("0".equals(done.get("missing")))
        {
            assertEquals(sent.get("checksum"), done.get("checksum"), "resumed from the retained log: " + context);
        }
    }

    @Test
    void shouldConflateToTheLatestMessagePerKeyForASlowSubscriber() throws InterruptedException
    {
        final String channel = channel(1005);
        final int count = 200_000;
        final int keys = 16;
        final ChildProcess fast = subscriber("sub-fast", channel, "count=" + count, "keys=" + keys);
        final ChildProcess slow = subscriber("sub-conflate", channel + "|policy=conflate", "count=" + count,
            "keys=" + keys, "pause-after=1000", "pause-ms=1000");
        final ChildProcess publisher = publisher("pub", channel + "|conflation-key=" +
            BusTestProcess.KEY_OFFSET + ":4", "count=" + count, "keys=" + keys, "wait-subscribers=2");

        final Map<String, String> sent = awaitSent(publisher, 30_000);
        assertReceivedEverything("fast subscriber", awaitDone(fast, 0, 10_000), sent);
        final Map<String, String> done = awaitDone(slow, 0, 10_000);
        final String context = "conflating subscriber " + done + dumpAll();
        assertEquals("0", done.get("errors"), "order, sequence or content errors: " + context);
        assertEquals("0", done.get("missing"), "conflation must not be reported as gaps: " + context);
        assertTrue(Long.parseLong(done.get("received")) < count, "nothing was conflated: " + context);
        assertEquals(List.of(), slow.matches(LOST_IMAGE).stream().map(Matcher::group).toList(),
            "a conflating subscriber never holds the publisher back, so is never dropped: " + context);
        final StringBuilder expected = new StringBuilder();
        for (int key = 0; key < keys; key++)
        {
            expected.append(0 == key ? "" : ",").append(count - keys + (key - (count - keys) % keys + keys) % keys);
        }
        assertEquals("LAST-BY-KEY sub=0 " + expected, slow.await(Pattern.compile("LAST-BY-KEY sub=0 .*"), 1000,
            evidence).group(), "the latest message of every key: " + context);
    }

    @Test
    void shouldLetAKilledSubscriberBeReplacedWhileAnotherLosesNothing() throws InterruptedException
    {
        final String channel = channel(1006);
        final ChildProcess survivor = subscriber("sub-survivor", channel);
        final ChildProcess victim = subscriber("sub-victim", channel);
        final ChildProcess publisher = publisher("pub", channel, "rate=20000", "wait-subscribers=2");
        victim.await(PROGRESSED, 20_000, evidence);

        final Pattern oneSubscriber = Pattern.compile("SUBSCRIBERS 1 .*");
        final Pattern twoSubscribers = Pattern.compile("SUBSCRIBERS 2 .*");
        final int onesBefore = publisher.matches(oneSubscriber).size();
        victim.kill();
        final long killedNs = System.nanoTime();
        publisher.await(oneSubscriber, onesBefore, LIVENESS_MS + 5_000, evidence);
        final long droppedAfterMs = (System.nanoTime() - killedNs) / 1_000_000;
        System.out.println(getClass().getSimpleName() + ": the publisher dropped the killed subscriber " +
            droppedAfterMs + " ms after kill -9 (liveness timeout " + LIVENESS_MS + " ms)");
        assertTrue(droppedAfterMs < LIVENESS_MS + 2_000, "the publisher dropped the killed subscriber only after " +
            droppedAfterMs + " ms, liveness timeout " + LIVENESS_MS + " ms" + dumpAll());

        final int twosBefore = publisher.matches(twoSubscribers).size();
        final ChildProcess replacement = subscriber("sub-replacement", channel);
        replacement.await(Pattern.compile("AVAILABLE sub=0 .*"), 20_000, evidence);
        publisher.await(twoSubscribers, twosBefore, 10_000, evidence);
        replacement.await(PROGRESSED, 10_000, evidence);

        publisher.send("STOP");
        final Map<String, String> sent = awaitSent(publisher, 20_000);
        survivor.send("STOP");
        replacement.send("STOP");
        assertReceivedEverything("survivor", awaitDone(survivor, 0, 10_000), sent);
        final Map<String, String> joined = awaitDone(replacement, 0, 10_000);
        final String context = "replacement " + joined + dumpAll();
        assertEquals("0", joined.get("errors"), "order, sequence or content errors: " + context);
        assertEquals("0", joined.get("skipped"), "messages skipped: " + context);
        assertEquals(String.valueOf(Long.parseLong(sent.get("count")) - 1), joined.get("last"), context);
    }

    @Test
    void shouldReportAKilledPublisherAndJoinItsRestartedSession() throws InterruptedException
    {
        final String channel = channel(1007);
        final ChildProcess subscriber = subscriber("sub", channel);
        final ChildProcess first = publisher("pub-first", channel, "rate=20000");
        final String firstSession = first.await(Pattern.compile("READY session=(-?\\d+)"), 20_000, evidence)
            .group(1);
        subscriber.await(PROGRESSED, 20_000, evidence);

        first.kill();
        final Matcher gone = subscriber.await(Pattern.compile("UNAVAILABLE sub=0 session=(-?\\d+) .*reason=(.+)"),
            LIVENESS_MS + 5_000, evidence);
        assertEquals(firstSession, gone.group(1), dumpAll());

        final ChildProcess second = publisher("pub-second", channel, "rate=20000");
        final String secondSession = second.await(Pattern.compile("READY session=(-?\\d+)"), 20_000, evidence)
            .group(1);
        assertNotEquals(firstSession, secondSession, dumpAll());
        subscriber.await(Pattern.compile("AVAILABLE sub=0 session=" + secondSession + " .*"), 20_000, evidence);
        final Map<String, String> first2 = fields(subscriber.await(
            Pattern.compile("FIRST sub=0 session=" + secondSession + " .*"), 10_000, evidence).group());
        assertEquals("0", first2.get("value"), "the restarted publisher waited for this subscriber" + dumpAll());

        second.send("STOP");
        final Map<String, String> sent = awaitSent(second, 20_000);
        subscriber.send("STOP");
        final Map<String, String> done = awaitDone(subscriber, 0, 10_000);
        final String context = "subscriber " + done + dumpAll();
        assertEquals("0", done.get("errors"), "order, sequence or content errors: " + context);
        assertEquals("0", done.get("skipped"), "messages skipped: " + context);
        assertEquals(secondSession, done.get("session"), context);
        assertEquals(String.valueOf(Long.parseLong(sent.get("count")) - 1), done.get("last"), context);
    }

    @Test
    void shouldDeliverEverythingInTheRingWhenThePublicationCloses() throws InterruptedException
    {
        final String channel = channel(1009);
        final int count = 100_000;
        final ChildProcess subscriber = subscriber("sub", channel, "count=" + count, "pause-after=98000",
            "pause-ms=1500");
        final ChildProcess publisher = publisher("pub", channel, "count=" + count, "drain-seconds=0");
        final Matcher line = publisher.await(SENT, 30_000, evidence);
        final Map<String, String> sent = Map.of("count", line.group(1), "checksum", line.group(2));
        assertEquals(0, publisher.awaitExit(10_000, evidence), dumpAll());

        assertReceivedEverything("subscriber paused while the publication closed", awaitDone(subscriber, 0, 10_000),
            sent);
    }

    @Test
    void shouldDeliverEachSessionExactlyOnceWhenThePublisherClosesAndRestarts() throws InterruptedException
    {
        final String channel = channel(1010);
        final ChildProcess subscriber = subscriber("sub", channel);
        final ChildProcess first = publisher("pub-first", channel, "count=50000");
        final String firstSession = fields(first.await(Pattern.compile("READY .*"), 20_000, evidence).group())
            .get("session");
        awaitSent(first, 30_000);
        assertEquals(0, first.awaitExit(10_000, evidence), dumpAll());
        subscriber.await(Pattern.compile("UNAVAILABLE sub=0 session=" + firstSession + " .*end of stream.*"),
            10_000, evidence);

        final ChildProcess second = publisher("pub-second", channel, "count=100000");
        final String secondSession = fields(second.await(Pattern.compile("READY .*"), 20_000, evidence).group())
            .get("session");
        awaitSent(second, 30_000);
        subscriber.await(Pattern.compile("UNAVAILABLE sub=0 session=" + secondSession + " .*end of stream.*"),
            10_000, evidence);
        subscriber.send("STOP");
        final Map<String, String> done = awaitDone(subscriber, 0, 10_000);
        final String context = "subscriber " + done + dumpAll();
        assertEquals("0", done.get("errors"), "order, sequence, content or duplicate errors: " + context);
        assertEquals("0", done.get("skipped"), "messages skipped: " + context);
        assertEquals("0", done.get("missing"), "messages reported missing: " + context);
        assertEquals("150000", done.get("received"), "both sessions, each message once: " + context);
        assertEquals("0", done.get("images"), "images left after both publications closed: " + context);
    }

    @Test
    void shouldCarryMessagesEndToEndWithTheCommandLineTools() throws InterruptedException
    {
        final String channel = channel(1008);
        final int count = 200_000;
        final List<String> flags = List.of("-D" + BusConfiguration.DIR_PROP_NAME + "=" + dir);
        final ChildProcess sub = startMain("warpbus-sub", flags, io.warpbus.tools.SubTool.class,
            "--channel", channel, "--count", String.valueOf(count), "--timeout", "60");
        final ChildProcess pub = startMain("warpbus-pub", flags, io.warpbus.tools.PubTool.class,
            "--channel", channel, "--count", String.valueOf(count), "--size", "64", "--wait-subscribers", "1",
            "--timeout", "60");

        final Matcher sent = pub.await(Pattern.compile("sent (\\d+) messages, checksum (\\w+)"), 30_000, evidence);
        final Matcher received = sub.await(
            Pattern.compile("received (\\d+) messages, gaps (\\d+), duplicates (\\d+), checksum (\\w+)"), 10_000,
            evidence);
        assertEquals(0, pub.awaitExit(10_000, evidence), dumpAll());
        assertEquals(0, sub.awaitExit(10_000, evidence), dumpAll());
        assertEquals(String.valueOf(count), sent.group(1), dumpAll());
        assertEquals(String.valueOf(count), received.group(1), dumpAll());
        assertEquals("0", received.group(2), "gaps" + dumpAll());
        assertEquals("0", received.group(3), "duplicates" + dumpAll());
        assertEquals(sent.group(2), received.group(4), "checksum" + dumpAll());
    }

    ChildProcess publisher(final String name, final String channel, final String... options)
    {
        return child("pub", name, channel, options);
    }

    ChildProcess subscriber(final String name, final String channel, final String... options)
    {
        return child("sub", name, channel, options);
    }

    ChildProcess startMain(final String name, final List<String> jvmFlags, final Class<?> main, final String... args)
    {
        final ChildProcess child = ChildProcess.start(name, logs, jvmFlags, main.getName(), Arrays.asList(args));
        children.add(child);
        return child;
    }

    private ChildProcess child(final String mode, final String name, final String channel, final String... options)
    {
        final List<String> args = new ArrayList<>(List.of("mode=" + mode, "name=" + name, "dir=" + dir,
            "channel=" + channel, "liveness-ms=" + LIVENESS_MS, "heartbeat-ms=100"));
        args.addAll(Arrays.asList(options));
        return startMain(name, List.of(), BusTestProcess.class, args.toArray(new String[0]));
    }

    /**
     * The {@code key=value} fields of an event line.
     */
    static Map<String, String> fields(final String line)
    {
        final Map<String, String> fields = new HashMap<>();
        final Matcher matcher = FIELD.matcher(line);
        while (matcher.find())
        {
            fields.putIfAbsent(matcher.group(1), matcher.group(2));
        }
        return fields;
    }

    /**
     * Wait for a publisher's final line, after it drained its subscribers.
     */
    Map<String, String> awaitSent(final ChildProcess publisher, final long timeoutMs) throws InterruptedException
    {
        final Matcher sent = publisher.await(SENT, timeoutMs, evidence);
        final Map<String, String> result = fields(sent.group(3));
        result.put("count", sent.group(1));
        result.put("checksum", sent.group(2));
        assertEquals(1, publisher.matches(Pattern.compile("DRAINED")).size(),
            publisher.name() + " did not see its subscribers drain the stream" + dumpAll());
        return result;
    }

    /**
     * Wait for a subscriber's summary of one subscription.
     */
    Map<String, String> awaitDone(final ChildProcess subscriber, final int index, final long timeoutMs)
        throws InterruptedException
    {
        return fields(subscriber.await(Pattern.compile("DONE (sub=" + index + " .*)"), timeoutMs, evidence)
            .group(1));
    }

    /**
     * Assert that a subscription received exactly what the publisher sent, in order, once, intact.
     */
    void assertReceivedEverything(final String who, final Map<String, String> done, final Map<String, String> sent)
    {
        final String context = who + " " + done + " vs publisher " + sent + dumpAll();
        assertEquals("0", done.get("errors"), "order, sequence or content errors: " + context);
        assertEquals("0", done.get("skipped"), "messages skipped: " + context);
        assertEquals("0", done.get("missing"), "messages reported missing: " + context);
        assertEquals(sent.get("count"), done.get("received"), "message count: " + context);
        assertEquals(sent.get("checksum"), done.get("checksum"), "checksum: " + context);
    }

    String dumpAll()
    {
        final StringBuilder builder = new StringBuilder("\n==== " + getClass().getSimpleName() + "." + testName +
            ": output of " + children.size() + " child processes (full logs in " + logs.toAbsolutePath() + ")");
        for (final ChildProcess child : children)
        {
            builder.append(child.dump());
        }
        return builder.toString();
    }
}
