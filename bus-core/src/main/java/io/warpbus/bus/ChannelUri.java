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

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.agrona.BitUtil;
import org.agrona.SystemUtil;

/**
 * A channel: transport, endpoint, stream and options.
 * <pre>
 *   warp:iwarp?endpoint=10.0.0.5:40456|stream=1001[|policy=block|ring=4m|name=md-feed]
 *   warp:ipc?stream=1001[|policy=drop|ring=4m]
 * </pre>
 * For iWARP the endpoint is where the publisher accepts subscribers; a subscriber retries until it is up, so either
 * side may start first. IPC channels meet through memory-mapped rings in the bus directory of the same host.
 * <table>
 *     <caption>Parameters</caption>
 *     <tr><td>endpoint</td><td>host:port, iWARP only, required</td></tr>
 *     <tr><td>stream</td><td>stream id, required</td></tr>
 *     <tr><td>policy</td><td>block (default), drop or conflate: the subscriber's slow-consumer policy</td></tr>
 *     <tr><td>ring</td><td>subscriber ring size, a power of two and a multiple of the term length</td></tr>
 *     <tr><td>term</td><td>publication term length (frames never cross a term), power of two, 64k to 64m</td></tr>
 *     <tr><td>window</td><td>publication log retained for resuming subscribers, a multiple of the term</td></tr>
 *     <tr><td>lag</td><td>bytes a drop-policy subscriber may lag before it is disconnected</td></tr>
 *     <tr><td>conflation-key</td><td>offset:length (4 or 8) of the conflation key in each message</td></tr>
 *     <tr><td>name</td><td>a name for counters and logs</td></tr>
 *     <tr><td>timestamp</td><td>offer (default) or cycle: how a publication stamps its frames, see
 *     {@link #cycleTimestamps()}</td></tr>
 * </table>
 */
public final class ChannelUri
{
    /** Scheme prefix. */
    public static final String PREFIX = "warp:";
    /** The iWARP transport. */
    public static final String IWARP = "iwarp";
    /** The shared-memory transport. */
    public static final String IPC = "ipc";

    private final String uri;
    private final String transport;
    private final Map<String, String> params;
    private final InetSocketAddress endpoint;
    private final int streamId;

    private ChannelUri(
        final String uri,
        final String transport,
        final Map<String, String> params,
        final InetSocketAddress endpoint,
        final int streamId)
    {
        this.uri = uri;
        this.transport = transport;
        this.params = params;
        this.endpoint = endpoint;
        this.streamId = streamId;
    }

    /**
     * Parse and validate a channel.
     *
     * @param uri the channel text.
     * @return the channel.
     * @throws IllegalArgumentException naming the bad part.
     */
    public static ChannelUri parse(final String uri)
    {
        if (null == uri || !uri.startsWith(PREFIX))
        {
            throw new IllegalArgumentException("channel '" + uri + "' must start with '" + PREFIX + "'");
        }
        final int question = uri.indexOf('?');
        final String transport = uri.substring(PREFIX.length(), question < 0 ? uri.length() : question);
        if (!IWARP.equals(transport) && !IPC.equals(transport))
        {
            throw new IllegalArgumentException("channel '" + uri + "': unknown transport '" + transport +
                "', expected iwarp or ipc");
        }
        final Map<String, String> params = new LinkedHashMap<>();
        if (question >= 0)
        {
            for (final String pair : uri.substring(question + 1).split("\\|"))
            {
                final int equals = pair.indexOf('=');
                if (equals <= 0 || equals == pair.length() - 1)
                {
                    throw new IllegalArgumentException("channel '" + uri + "': parameter '" + pair +
                        "' must be name=value");
                }
                final String name = pair.substring(0, equals).trim();
                if (!isKnown(name))
                {
                    throw new IllegalArgumentException("channel '" + uri + "': unknown parameter '" + name + "'");
                }
                if (null != params.put(name, pair.substring(equals + 1).trim()))
                {
                    throw new IllegalArgumentException("channel '" + uri + "': parameter '" + name + "' repeated");
                }
            }
        }
        final String stream = params.get("stream");
        if (null == stream)
        {
            throw new IllegalArgumentException("channel '" + uri + "': missing stream=ID");
        }
        final int streamId = parseInt(uri, "stream", stream);
        InetSocketAddress endpoint = null;
        if (IWARP.equals(transport))
        {
            final String value = params.get("endpoint");
            if (null == value)
            {
                throw new IllegalArgumentException("channel '" + uri + "': an iwarp channel needs endpoint=host:port");
            }
            endpoint = parseEndpoint(uri, value);
        }
        else if (params.containsKey("endpoint"))
        {
            throw new IllegalArgumentException("channel '" + uri + "': an ipc channel takes no endpoint");
        }
        final ChannelUri channel = new ChannelUri(uri, transport, params, endpoint, streamId);
        channel.policy();
        channel.cycleTimestamps();
        channel.validateSizes();
        channel.conflationKeyOffset();
        return channel;
    }

    /**
     * The text it was parsed from.
     *
     * @return the URI.
     */
    public String uri()
    {
        return uri;
    }

    /**
     * Transport, {@link #IWARP} or {@link #IPC}.
     *
     * @return the transport.
     */
    public String transport()
    {
        return transport;
    }

    /**
     * Is this an IPC channel?
     *
     * @return true for warp:ipc.
     */
    public boolean isIpc()
    {
        return IPC.equals(transport);
    }

    /**
     * The publisher's endpoint (iWARP only).
     *
     * @return the address, or null for IPC.
     */
    public InetSocketAddress endpoint()
    {
        return endpoint;
    }

    /**
     * The stream id.
     *
     * @return the id.
     */
    public int streamId()
    {
        return streamId;
    }

    /**
     * The slow-consumer policy.
     *
     * @return the policy, {@link SlowConsumerPolicy#BLOCK} when not given.
     */
    public SlowConsumerPolicy policy()
    {
        final String value = params.get("policy");
        if (null == value)
        {
            return SlowConsumerPolicy.BLOCK;
        }
        try
        {
            return SlowConsumerPolicy.valueOf(value.toUpperCase());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("channel '" + uri + "': policy '" + value +
                "' must be block, drop or conflate");
        }
    }

    /**
     * How a publication stamps its frames ({@code timestamp=}). {@code offer}, the default: each frame with the
     * clock read as it is offered. {@code cycle}: frames offered on the bus's own thread between two of its duty
     * cycles share one clock read, taken at the first of them; offers from other threads still read the clock
     * each. A clock read costs 20-30 ns, a sixth of a 64-byte offer's cost when streaming.
     *
     * @return true for {@code timestamp=cycle}.
     */
    public boolean cycleTimestamps()
    {
        final String value = params.get("timestamp");
        if (null == value || "offer".equals(value))
        {
            return false;
        }
        if ("cycle".equals(value))
        {
            return true;
        }
        throw new IllegalArgumentException("channel '" + uri + "': timestamp '" + value + "' must be offer or cycle");
    }

    /**
     * A size parameter.
     *
     * @param name         parameter name.
     * @param defaultValue value when absent.
     * @return the size in bytes.
     */
    public int size(final String name, final int defaultValue)
    {
        final String value = params.get(name);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            final long size = SystemUtil.parseSize(name, value);
            if (size <= 0 || size > Integer.MAX_VALUE)
            {
                throw new NumberFormatException("out of range");
            }
            return (int)size;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("channel '" + uri + "': " + name + "=" + value +
                " is not a size (e.g. 4m)");
        }
    }

    /**
     * A non-negative whole-number parameter such as {@code initial-sequence=1000}.
     *
     * @param name         parameter name.
     * @param defaultValue value when absent.
     * @return the value.
     */
    public long number(final String name, final long defaultValue)
    {
        final String value = params.get(name);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            final long number = Long.parseLong(value.trim());
            if (number < 0)
            {
                throw new NumberFormatException("negative");
            }
            return number;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("channel '" + uri + "': " + name + "=" + value +
                " is not a whole number >= 0");
        }
    }

    /**
     * The publication's {@code durable-timeout} ({@code 30s}; {@code 0} turns durable bridging off).
     *
     * @param defaultValue nanoseconds when absent.
     * @return nanoseconds, 0 for none.
     */
    public long durableTimeoutNs(final long defaultValue)
    {
        return "0".equals(params.get("durable-timeout")) ? 0 : durationNs("durable-timeout", defaultValue);
    }

    /**
     * A duration parameter such as {@code lag-timeout=500ms}.
     *
     * @param name         parameter name.
     * @param defaultValue nanoseconds when absent.
     * @return nanoseconds.
     */
    public long durationNs(final String name, final long defaultValue)
    {
        final String value = params.get(name);
        if (null == value)
        {
            return defaultValue;
        }
        try
        {
            final long ns = SystemUtil.parseDuration(name, value);
            if (ns <= 0)
            {
                throw new NumberFormatException("not positive");
            }
            return ns;
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("channel '" + uri + "': " + name + "=" + value +
                " is not a duration (e.g. 500ms or 2s)");
        }
    }

    /**
     * The name parameter.
     *
     * @param defaultValue value when absent.
     * @return the name.
     */
    public String name(final String defaultValue)
    {
        return params.getOrDefault("name", defaultValue);
    }

    /**
     * A text parameter.
     *
     * @param name         parameter.
     * @param defaultValue value when absent.
     * @return the value.
     */
    public String text(final String name, final String defaultValue)
    {
        return params.getOrDefault(name, defaultValue);
    }

    /**
     * Where the conflation key sits in each message, or -1 when the stream declares none.
     *
     * @return offset in the payload.
     */
    public int conflationKeyOffset()
    {
        final String value = params.get("conflation-key");
        if (null == value)
        {
            return -1;
        }
        final String[] parts = value.split(":");
        if (2 != parts.length)
        {
            throw new IllegalArgumentException("channel '" + uri + "': conflation-key=" + value +
                " must be offset:length");
        }
        final int offset = parseInt(uri, "conflation-key offset", parts[0]);
        final int length = parseInt(uri, "conflation-key length", parts[1]);
        if (offset < 0 || (length != 4 && length != 8))
        {
            throw new IllegalArgumentException("channel '" + uri + "': conflation-key=" + value +
                " needs an offset >= 0 and a length of 4 or 8");
        }
        return offset;
    }

    /**
     * Length of the conflation key.
     *
     * @return 4 or 8, or 0 when the stream declares none.
     */
    public int conflationKeyLength()
    {
        final String value = params.get("conflation-key");
        return null == value ? 0 : Integer.parseInt(value.split(":")[1].trim());
    }

    /**
     * Does the channel set this parameter?
     *
     * @param name parameter.
     * @return true when present.
     */
    public boolean has(final String name)
    {
        return params.containsKey(name);
    }

    private void validateSizes()
    {
        for (final String name : new String[] { "ring", "term", "window" })
        {
            if (params.containsKey(name) && !BitUtil.isPowerOfTwo(size(name, 0)))
            {
                throw new IllegalArgumentException("channel '" + uri + "': " + name + "=" + params.get(name) +
                    " must be a power of two");
            }
        }
        if (params.containsKey("lag"))
        {
            size("lag", 0);
        }
        durationNs("lag-timeout", 0);
        durableTimeoutNs(0);
        number("initial-sequence", 0);
        number("replay-from", 0);
        number("replay-to", 0);
        number("replay-from-time", 0);
        if (params.containsKey("announce-replay"))
        {
            parseEndpoint(uri, params.get("announce-replay"));
        }
        if (isReplay() && isIpc())
        {
            throw new IllegalArgumentException("channel '" + uri + "': replays are served over iwarp: name the " +
                "recorder's endpoint");
        }
        if (params.containsKey("replay-to") && !isReplay())
        {
            throw new IllegalArgumentException("channel '" + uri + "': replay-to needs replay-from or " +
                "replay-from-time");
        }
    }

    /**
     * Does the channel ask for a replay of the recorded stream ({@code replay-from} or {@code replay-from-time})?
     *
     * @return true for a replay subscription.
     */
    public boolean isReplay()
    {
        return params.containsKey("replay-from") || params.containsKey("replay-from-time");
    }

    private static boolean isKnown(final String name)
    {
        switch (name)
        {
            case "endpoint":
            case "stream":
            case "policy":
            case "ring":
            case "term":
            case "window":
            case "lag":
            case "lag-timeout":
            case "durable-timeout":
            case "initial-sequence":
            case "conflation-key":
            case "name":
            case "replay-from":
            case "replay-to":
            case "replay-from-time":
            case "announce-replay":
            case "timestamp":
                return true;
            default:
                return false;
        }
    }

    /**
     * Parse a {@code host:port} endpoint, as in a channel's {@code endpoint=}.
     *
     * @param endpoint host:port (an IPv6 host in brackets).
     * @return the address.
     * @throws IllegalArgumentException naming what is wrong.
     */
    public static InetSocketAddress parseEndpoint(final String endpoint)
    {
        return parseEndpoint(endpoint, endpoint);
    }

    private static InetSocketAddress parseEndpoint(final String uri, final String value)
    {
        final int colon = value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1)
        {
            throw new IllegalArgumentException("channel '" + uri + "': endpoint '" + value + "' must be host:port");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]"))
        {
            host = host.substring(1, host.length() - 1);
        }
        final int port = parseInt(uri, "endpoint port", value.substring(colon + 1));
        if (port < 0 || port > 65535)
        {
            throw new IllegalArgumentException("channel '" + uri + "': endpoint port " + port + " out of range");
        }
        try
        {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("channel '" + uri + "': endpoint host '" + host + "' is unknown");
        }
    }

    private static int parseInt(final String uri, final String what, final String value)
    {
        try
        {
            return Integer.parseInt(value.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("channel '" + uri + "': " + what + " '" + value +
                "' is not a number");
        }
    }

    @Override
    public String toString()
    {
        return uri;
    }
}
