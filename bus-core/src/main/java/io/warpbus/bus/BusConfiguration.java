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

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.ThreadingMode;
import org.agrona.SystemUtil;

/**
 * System properties that configure a {@link Bus}, with their defaults; {@link BusContext} starts from these.
 *
 * <table>
 *     <caption>Bus properties</caption>
 *     <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *     <tr><td>warpbus.dir</td><td>/dev/shm/warpbus (or the temp dir)</td><td>counters files and IPC rings</td></tr>
 *     <tr><td>warpbus.bus.name</td><td>bus-PID</td><td>this bus's directory under warpbus.dir</td></tr>
 *     <tr><td>warpbus.bus.threading.mode</td><td>DEDICATED</td><td>DEDICATED, SHARED or INVOKER</td></tr>
 *     <tr><td>warpbus.bus.idle.strategy</td><td>backoff</td>
 *         <td>spin, noop, yield, backoff, backoff-N, park-N, sleep-N</td></tr>
 *     <tr><td>warpbus.bus.term.length</td><td>1m</td><td>frames never cross a term</td></tr>
 *     <tr><td>warpbus.bus.window</td><td>16m</td><td>log a publication retains for resuming subscribers</td></tr>
 *     <tr><td>warpbus.bus.ring</td><td>4m</td><td>a subscription's ring</td></tr>
 *     <tr><td>warpbus.bus.heartbeat.interval</td><td>100ms</td><td>heartbeats and credits when idle</td></tr>
 *     <tr><td>warpbus.bus.liveness.timeout</td><td>5s</td><td>a peer silent this long is gone</td></tr>
 *     <tr><td>warpbus.bus.drop.lag</td><td>window / 2</td><td>lag that disconnects a drop-policy subscriber</td></tr>
 *     <tr><td>warpbus.bus.max.subscribers</td><td>64</td><td>subscribers one publication serves</td></tr>
 * </table>
 */
public final class BusConfiguration
{
    /** Base directory property. */
    public static final String DIR_PROP_NAME = "warpbus.dir";
    /** Bus name property. */
    public static final String NAME_PROP_NAME = "warpbus.bus.name";
    /** Threading mode property. */
    public static final String THREADING_MODE_PROP_NAME = "warpbus.bus.threading.mode";
    /** Idle strategy property. */
    public static final String IDLE_STRATEGY_PROP_NAME = "warpbus.bus.idle.strategy";
    /** Term length property. */
    public static final String TERM_LENGTH_PROP_NAME = "warpbus.bus.term.length";
    /** Default term length. */
    public static final int TERM_LENGTH_DEFAULT = 1024 * 1024;
    /** Window property. */
    public static final String WINDOW_PROP_NAME = "warpbus.bus.window";
    /** Default window. */
    public static final int WINDOW_DEFAULT = 16 * 1024 * 1024;
    /** Ring property. */
    public static final String RING_PROP_NAME = "warpbus.bus.ring";
    /** Default ring. */
    public static final int RING_DEFAULT = 4 * 1024 * 1024;
    /** Heartbeat interval property. */
    public static final String HEARTBEAT_INTERVAL_PROP_NAME = "warpbus.bus.heartbeat.interval";
    /** Default heartbeat interval. */
    public static final long HEARTBEAT_INTERVAL_DEFAULT_NS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Liveness timeout property. */
    public static final String LIVENESS_TIMEOUT_PROP_NAME = "warpbus.bus.liveness.timeout";
    /** Default liveness timeout. */
    public static final long LIVENESS_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(5);
    /** How long a publication bridges the absence of a durable subscriber (a recorder) it lost. */
    public static final String DURABLE_TIMEOUT_PROP_NAME = "warpbus.bus.durable.timeout";
    /** Default durable timeout. */
    public static final long DURABLE_TIMEOUT_DEFAULT_NS = TimeUnit.SECONDS.toNanos(30);
    /** Drop lag property. */
    public static final String DROP_LAG_PROP_NAME = "warpbus.bus.drop.lag";
    /** Max subscribers property. */
    public static final String MAX_SUBSCRIBERS_PROP_NAME = "warpbus.bus.max.subscribers";
    /** Default max subscribers. */
    public static final int MAX_SUBSCRIBERS_DEFAULT = 64;
    /** Smallest term. */
    public static final int MIN_TERM_LENGTH = 64 * 1024;
    /** Largest term. */
    public static final int MAX_TERM_LENGTH = 64 * 1024 * 1024;

    private BusConfiguration()
    {
    }

    static Path directory()
    {
        final String dir = System.getProperty(DIR_PROP_NAME);
        if (null != dir)
        {
            return Path.of(dir);
        }
        final Path shm = Path.of("/dev/shm");
        final String user = System.getProperty("user.name", "user");
        return Files.isDirectory(shm) && Files.isWritable(shm) ?
            shm.resolve("warpbus-" + user) :
            Path.of(System.getProperty("java.io.tmpdir") + File.separator + "warpbus-" + user);
    }

    static String name()
    {
        return System.getProperty(NAME_PROP_NAME, "bus-" + ProcessHandle.current().pid());
    }

    static ThreadingMode threadingMode()
    {
        final String value = System.getProperty(THREADING_MODE_PROP_NAME, ThreadingMode.DEDICATED.name());
        try
        {
            return ThreadingMode.valueOf(value.trim().toUpperCase());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(THREADING_MODE_PROP_NAME + "=" + value +
                " must be DEDICATED, SHARED or INVOKER", ex);
        }
    }

    static String idleStrategy()
    {
        return System.getProperty(IDLE_STRATEGY_PROP_NAME, System.getProperty("warpbus.idle.strategy", "backoff"));
    }

    static int termLength()
    {
        return SystemUtil.getSizeAsInt(TERM_LENGTH_PROP_NAME, TERM_LENGTH_DEFAULT);
    }

    static int window()
    {
        return SystemUtil.getSizeAsInt(WINDOW_PROP_NAME, WINDOW_DEFAULT);
    }

    static int ring()
    {
        return SystemUtil.getSizeAsInt(RING_PROP_NAME, RING_DEFAULT);
    }

    static long heartbeatIntervalNs()
    {
        return SystemUtil.getDurationInNanos(HEARTBEAT_INTERVAL_PROP_NAME, HEARTBEAT_INTERVAL_DEFAULT_NS);
    }

    static long livenessTimeoutNs()
    {
        return SystemUtil.getDurationInNanos(LIVENESS_TIMEOUT_PROP_NAME, LIVENESS_TIMEOUT_DEFAULT_NS);
    }

    static long durableTimeoutNs()
    {
        return SystemUtil.getDurationInNanos(DURABLE_TIMEOUT_PROP_NAME, DURABLE_TIMEOUT_DEFAULT_NS);
    }

    static int dropLag()
    {
        return SystemUtil.getSizeAsInt(DROP_LAG_PROP_NAME, 0);
    }

    static int maxSubscribers()
    {
        return Integer.getInteger(MAX_SUBSCRIBERS_PROP_NAME, MAX_SUBSCRIBERS_DEFAULT);
    }
}
