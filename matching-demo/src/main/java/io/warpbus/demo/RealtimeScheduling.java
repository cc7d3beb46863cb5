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
package io.warpbus.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A process's duty-cycle thread at a real-time priority ({@code SCHED_FIFO}), from the options
 * {@code --realtime off|PRIORITY} and {@code --realtime-after SECONDS}. On a machine with fewer cores than busy
 * threads, a thread of the normal policy that wakes for a message waits behind whatever the kernel runs on its core,
 * for up to a scheduler slice; a {@code SCHED_FIFO} thread runs at once. It must give its core back whenever it is
 * idle, which is why the demo pairs it with the {@code park-N} idle strategy (docs/performance.md, "The
 * market-data subscriber's wake-ups").
 * <p>
 * Java cannot set a thread's policy, so the thread's kernel id is read on the thread itself ({@code /proc/thread-self})
 * and util-linux's {@code chrt} sets it; the policy is then read back from {@code /proc}. It needs root or
 * {@code CAP_SYS_NICE}. A process checks that it may before it says READY, with a short-lived thread of its own, so a
 * refusal stops it at the start with the reason; the duty-cycle thread is raised after {@code --realtime-after}
 * seconds, so that the JIT's compiler threads, which run at the normal policy, are not starved while they compile the
 * hot paths.
 */
public final class RealtimeScheduling
{
    /** The option's value that leaves the threads at the normal policy. */
    public static final String OFF = "off";
    /** {@code SCHED_FIFO} in the policy field of {@code /proc/PID/task/TID/stat} (sched.h). */
    static final int SCHED_FIFO = 1;
    /** {@code SCHED_OTHER}, the normal policy. */
    static final int SCHED_OTHER = 0;
    private static final long CHRT_TIMEOUT_MS = 10_000;
    private static final long THREAD_START_TIMEOUT_MS = 10_000;

    private final int priority;
    private final long afterMs;
    private final AtomicLong dutyCycleTid = new AtomicLong();
    private final AtomicReference<String> noTid = new AtomicReference<>();
    private final CountDownLatch dutyCycleStarted = new CountDownLatch(1);
    private final AtomicReference<String> failure = new AtomicReference<>();

    private RealtimeScheduling(final int priority, final long afterMs)
    {
        this.priority = priority;
        this.afterMs = afterMs;
    }

    /**
     * Read {@code --realtime} and {@code --realtime-after}.
     *
     * @param options the process's options.
     * @return what they ask for.
     * @throws IllegalArgumentException naming the option whose value is wrong.
     */
    public static RealtimeScheduling fromOptions(final Options options)
    {
        final String value = options.string("realtime", OFF).trim();
        final long afterS = options.number("realtime-after", 0, 0, 3600);
        return new RealtimeScheduling(OFF.equals(value) ? 0 : priority(value), TimeUnit.SECONDS.toMillis(afterS));
    }

    /**
     * Check a priority as {@code --realtime} takes it.
     *
     * @param value the option's value.
     * @return the priority, 1 to 99.
     * @throws IllegalArgumentException naming what is wrong.
     */
    public static int priority(final String value)
    {
        final int priority;
        try
        {
            priority = Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("--realtime " + value + ": expected off or a SCHED_FIFO priority, " +
                "1 to 99");
        }
        if (priority < 1 || priority > 99)
        {
            throw new IllegalArgumentException("--realtime " + value + ": a SCHED_FIFO priority is 1 to 99");
        }
        return priority;
    }

    /**
     * Whether a real-time priority was asked for.
     *
     * @return false for {@code --realtime off}.
     */
    public boolean enabled()
    {
        return priority > 0;
    }

    /**
     * A thread factory for the duty cycle's {@code AgentRunner} that records the thread's kernel id as it starts.
     *
     * @return the factory.
     */
    public ThreadFactory threadFactory()
    {
        return (runnable) -> new Thread(() ->
        {
            if (enabled())
            {
                try
                {
                    dutyCycleTid.set(currentTid());
                }
                catch (final IllegalStateException ex)
                {
                    noTid.set(ex.getMessage());
                }
                finally
                {
                    dutyCycleStarted.countDown();
                }
            }
            runnable.run();
        });
    }

    /**
     * Check, before the process says READY, that this process may use the priority, with a thread of its own that is
     * raised and ends; say why on standard error when it may not.
     *
     * @param who the process, for the message.
     * @return false when a priority was asked for and this process may not use it.
     */
    public boolean permitted(final String who)
    {
        try
        {
            if (enabled())
            {
                checkPermitted(priority);
            }
            return true;
        }
        catch (final IllegalStateException ex)
        {
            System.err.println(who + ": --realtime " + priority + ": " + ex.getMessage());
            return false;
        }
    }

    /**
     * Raise the duty-cycle thread from a thread of its own after {@code --realtime-after}; print
     * {@code REALTIME WHO tid=TID policy=SCHED_FIFO priority=N after_s=S} when done. A failure prints the reason on
     * standard error, opens {@code stop} and is kept for {@link #failure()}.
     *
     * @param who  the process, for the lines.
     * @param stop the process's stop latch.
     * @param out  where the line goes.
     */
    public void start(final String who, final CountDownLatch stop, final PrintStream out)
    {
        if (!enabled())
        {
            return;
        }
        final Runnable raise = () ->
        {
            try
            {
                if (stop.await(afterMs, TimeUnit.MILLISECONDS))
                {
                    return;
                }
                final long tid = raiseStartedThread();
                out.println("REALTIME " + who + " tid=" + tid + " policy=SCHED_FIFO priority=" + priority +
                    " after_s=" + TimeUnit.MILLISECONDS.toSeconds(afterMs));
                out.flush();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            catch (final RuntimeException ex)
            {
                failure.set(ex.getMessage());
                System.err.println(who + ": --realtime: " + ex.getMessage());
                System.err.flush();
                stop.countDown();
            }
        };
        final Thread thread = new Thread(raise, who + "-realtime");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Raise the thread {@link #threadFactory()} made, once it has started.
     *
     * @return its kernel id.
     * @throws IllegalStateException when it did not start, its id is unknown, or raising it failed.
     * @throws InterruptedException  if interrupted waiting for it to start.
     */
    private long raiseStartedThread() throws InterruptedException
    {
        if (!dutyCycleStarted.await(THREAD_START_TIMEOUT_MS, TimeUnit.MILLISECONDS))
        {
            throw new IllegalStateException("the thread to raise did not start");
        }
        final long tid = dutyCycleTid.get();
        if (0 == tid)
        {
            throw new IllegalStateException(noTid.get());
        }
        raise(tid, priority);
        return tid;
    }

    /**
     * Why raising the duty-cycle thread failed.
     *
     * @return the reason, or null when it did not fail.
     */
    public String failure()
    {
        return failure.get();
    }

    /**
     * The calling thread's kernel id: {@code /proc/thread-self} links to {@code PID/task/TID} (proc(5)).
     *
     * @return the id.
     */
    static long currentTid()
    {
        try
        {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            throw new IllegalStateException("cannot read this thread's id from /proc/thread-self: " + ex, ex);
        }
    }

    /**
     * Put a thread of this process at {@code SCHED_FIFO} and check from {@code /proc} that it is there.
     *
     * @param tid      the thread's kernel id.
     * @param priority 1 to 99.
     * @throws IllegalStateException naming the thread and what went wrong.
     */
    static void raise(final long tid, final int priority)
    {
        final String command = "chrt -f -p " + priority + " " + tid;
        final String output;
        final int exit;
        try
        {
            final Process chrt = new ProcessBuilder("chrt", "-f", "-p", String.valueOf(priority), String.valueOf(tid))
                .redirectErrorStream(true).start();
            chrt.getOutputStream().close();
            if (!chrt.waitFor(CHRT_TIMEOUT_MS, TimeUnit.MILLISECONDS))
            {
                chrt.destroyForcibly();
                throw new IllegalStateException("'" + command + "' did not finish in " + CHRT_TIMEOUT_MS + " ms");
            }
            output = new String(chrt.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            exit = chrt.exitValue();
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot run '" + command + "' (util-linux's chrt): " + ex.getMessage(), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running '" + command + "'", ex);
        }
        if (0 != exit)
        {
            throw new IllegalStateException("'" + command + "' exited " + exit + ": " + output +
                " (a real-time priority needs root or CAP_SYS_NICE)");
        }
        final int[] now = scheduling(tid);
        if (SCHED_FIFO != now[0] || priority != now[1])
        {
            throw new IllegalStateException("after '" + command + "' thread " + tid + " has policy " + now[0] +
                " priority " + now[1] + ", not SCHED_FIFO (" + SCHED_FIFO + ") priority " + priority);
        }
    }

    /**
     * A thread's policy and real-time priority, from {@code /proc/self/task/TID/stat}.
     *
     * @param tid the thread's kernel id, of this process.
     * @return { policy, rt_priority }.
     */
    static int[] scheduling(final long tid)
    {
        try
        {
            return parseStat(Files.readString(Path.of("/proc/self/task/" + tid + "/stat"), StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot read the scheduling of thread " + tid + ": " + ex, ex);
        }
    }

    /**
     * Policy and real-time priority from a {@code stat} line of proc(5): {@code rt_priority} is field 40 and
     * {@code policy} field 41, counted from 1 with the pid first. The command name (field 2) is in parentheses and may
     * itself hold spaces and parentheses, so fields are counted from the last {@code ')'}, after which comes field 3.
     *
     * @param stat the line.
     * @return { policy, rt_priority }.
     * @throws IllegalArgumentException when the line is not a stat line.
     */
    static int[] parseStat(final String stat)
    {
        final int close = stat.lastIndexOf(')');
        final String[] fields = close < 0 ? new String[0] : stat.substring(close + 1).trim().split("\\s+");
        final int rtPriorityIndex = 40 - 3;
        final int policyIndex = 41 - 3;
        if (fields.length <= policyIndex)
        {
            throw new IllegalArgumentException("not a /proc stat line with a policy field: '" + stat.trim() + "'");
        }
        try
        {
            return new int[] { Integer.parseInt(fields[policyIndex]), Integer.parseInt(fields[rtPriorityIndex]) };
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("not a /proc stat line with a policy field: '" + stat.trim() + "'");
        }
    }

    /**
     * Why this process may not put its threads at a {@code SCHED_FIFO} priority, found with a thread of its own that
     * is raised and ends.
     *
     * @param priority 1 to 99.
     * @return the reason, or null when it may.
     */
    public static String refusal(final int priority)
    {
        try
        {
            checkPermitted(priority);
            return null;
        }
        catch (final IllegalStateException ex)
        {
            return ex.getMessage();
        }
    }

    /**
     * Check that this process may put its threads at a {@code SCHED_FIFO} priority, with a thread of its own that is
     * raised and ends.
     *
     * @param priority 1 to 99.
     * @throws IllegalStateException with the reason when it may not.
     */
    public static void checkPermitted(final int priority)
    {
        final RealtimeScheduling check = new RealtimeScheduling(priority, 0);
        final CountDownLatch release = new CountDownLatch(1);
        final Thread thread = check.threadFactory().newThread(() ->
        {
            try
            {
                release.await(THREAD_START_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        });
        thread.setName("realtime-check");
        thread.setDaemon(true);
        thread.start();
        try
        {
            check.raiseStartedThread();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted checking the real-time priority", ex);
        }
        finally
        {
            release.countDown();
        }
    }
}
