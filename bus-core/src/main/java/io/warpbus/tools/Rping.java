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
package io.warpbus.tools;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.Access;
import io.warpbus.iwarp.CompletionHandler;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.ConnectionEvent;
import io.warpbus.iwarp.ConnectionEventType;
import io.warpbus.iwarp.ConnectionParameters;
import io.warpbus.iwarp.Listener;
import io.warpbus.iwarp.MemoryRegion;
import io.warpbus.iwarp.ProtectionDomain;
import io.warpbus.iwarp.QueuePair;
import io.warpbus.iwarp.QueuePairAttributes;
import io.warpbus.iwarp.Rnic;
import io.warpbus.iwarp.RnicContext;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.iwarp.mpa.CrcPolicy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * {@code warpbus rping}: the ping-pong test of rdma-core's librdmacm {@code rping} example, wire-compatible with
 * it, so it can talk to an rping peer on Linux soft-iWARP (siw) or an iWARP NIC as well as to itself.
 * <p>
 * Per ping the client sends the address, STag and size of its start buffer (a 16-byte big-endian Send); the
 * server RDMA-Reads the ping data from it and answers with a 16-byte "go ahead" Send; the client sends its sink
 * buffer's address; the server RDMA-Writes the data back into it and sends "go ahead" again; with {@code -V} the
 * client checks the two buffers match.
 * <p>
 * Each connection is an {@link RpingSession}: a state machine fed every completion and connection event in the
 * order they come, so a peer that answers before this side has polled its own completion loses nothing. A server
 * exits 0 when its client disconnects between pings, and 255 with the reason when the client left before its
 * first ping (refused the MPA reply, for example) or in the middle of one.
 */
public final class Rping
{
    static final int DEFAULT_PORT = 7174;
    static final int DEFAULT_SIZE = 64;
    static final int MIN_SIZE = 23;
    static final int MAX_SIZE = 65535;
    static final int EXIT_OK = 0;
    static final int EXIT_USAGE = 22;
    static final int EXIT_FAILED = 255;
    private static final long WAIT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    private final Options options;
    private final PrintStream out;
    private final PrintStream err;

    /** Parsed command line. */
    static final class Options
    {
        boolean server;
        boolean client;
        String address;
        int port = DEFAULT_PORT;
        int count;
        int size = DEFAULT_SIZE;
        boolean verbose;
        boolean validate;
        boolean persistent;
        boolean debug;
        CrcPolicy crcPolicy;
        int mpaRevision;
    }

    Rping(final Options options, final PrintStream out, final PrintStream err)
    {
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /**
     * Run rping.
     *
     * @param args rping's options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Run rping without exiting the JVM, as interop tests and embedding tools do.
     *
     * @param args rping's options.
     * @param out  where ping data and debug output go.
     * @param err  where failures and usage go.
     * @return the exit code: 0, 22 for bad options, 255 on failure.
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err)
    {
        final Options options;
        try
        {
            options = parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println(ex.getMessage());
            usage(err);
            return EXIT_USAGE;
        }
        try
        {
            return new Rping(options, out, err).run();
        }
        catch (final RuntimeException ex)
        {
            err.println("rping " + (options.server ? "server" : "client") + " failed: " + ex.getMessage());
            return EXIT_FAILED;
        }
    }

    static Options parse(final String[] args)
    {
        final Options options = new Options();
        for (int i = 0; i < args.length; i++)
        {
            final String arg = args[i];
            switch (arg)
            {
                case "-s":
                    options.server = true;
                    break;
                case "-c":
                    options.client = true;
                    break;
                case "-a":
                    options.address = value(args, ++i, arg);
                    break;
                case "-p":
                    options.port = number(args, ++i, arg);
                    if (options.port < 0 || options.port > 65535)
                    {
                        throw new IllegalArgumentException("Invalid port " + options.port);
                    }
                    break;
                case "-C":
                    options.count = number(args, ++i, arg);
                    if (options.count < 0)
                    {
                        throw new IllegalArgumentException("Invalid count " + options.count);
                    }
                    break;
                case "-S":
                    options.size = number(args, ++i, arg);
                    if (options.size < MIN_SIZE || options.size > MAX_SIZE)
                    {
                        throw new IllegalArgumentException("Invalid size " + options.size +
                            " (valid range is " + MIN_SIZE + " to " + MAX_SIZE + ")");
                    }
                    break;
                case "-v":
                    options.verbose = true;
                    break;
                case "-V":
                    options.validate = true;
                    break;
                case "-P":
                    options.persistent = true;
                    break;
                case "-d":
                    options.debug = true;
                    break;
                case "--crc":
                    options.crcPolicy = crcPolicy(value(args, ++i, arg));
                    break;
                case "--mpa-revision":
                    options.mpaRevision = number(args, ++i, arg);
                    if (options.mpaRevision != 1 && options.mpaRevision != 2)
                    {
                        throw new IllegalArgumentException("Invalid MPA revision " + options.mpaRevision +
                            " (1 or 2)");
                    }
                    break;
                default:
                    throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        if (options.server == options.client)
        {
            throw new IllegalArgumentException("exactly one of -s (server) or -c (client) is required");
        }
        if (options.client && null == options.address)
        {
            throw new IllegalArgumentException("the client needs the server's address: -a ADDR");
        }
        return options;
    }

    static void usage(final PrintStream err)
    {
        err.println("usage: warpbus rping -s [-vVdP] [-S size] [-C count] [-a addr] [-p port] [engine options]");
        err.println("       warpbus rping -c [-vVd] [-S size] [-C count] -a addr [-p port] [engine options]");
        err.println("  -c          client side");
        err.println("  -s          server side (-P: persistent, keep accepting clients)");
        err.println("  -v          display ping data to stdout");
        err.println("  -V          validate ping data");
        err.println("  -d          debug printfs");
        err.println("  -S size     size of ping data (default " + DEFAULT_SIZE + ", " + MIN_SIZE + " to " +
            MAX_SIZE + ")");
        err.println("  -C count    number of pings (default 0: forever)");
        err.println("  -a addr     address (server default: all interfaces)");
        err.println("  -p port     port (default " + DEFAULT_PORT + ")");
        err.println("  --crc required|preferred|off     MPA CRC policy (default: warpbus.rnic.crc.policy, preferred)");
        err.println("  --mpa-revision 1|2               MPA revision to speak (default: warpbus.rnic.mpa.revision, 2)");
    }

    private int run()
    {
        final RnicContext context = new RnicContext().name("rping").threadingMode(ThreadingMode.INVOKER)
            .ird(1).ord(1);
        if (null != options.crcPolicy)
        {
            context.crcPolicy(options.crcPolicy);
        }
        if (0 != options.mpaRevision)
        {
            context.mpaRevision(options.mpaRevision);
        }
        try (Rnic rnic = Rnic.launch(context))
        {
            final Endpoint endpoint = new Endpoint(rnic, context.idleStrategy());
            return options.server ? runServer(endpoint) : runClient(endpoint);
        }
    }

    private int runServer(final Endpoint endpoint)
    {
        final InetSocketAddress bind = new InetSocketAddress(resolve(null == options.address ? "0.0.0.0" :
            options.address), options.port);
        try (Listener listener = endpoint.rnic.connectionManager().listen(bind, 3, null))
        {
            debug("listening on " + listener.localAddress());
            do
            {
                final ConnectionEvent request = endpoint.awaitConnectRequest();
                debug("cma_event type CONNECT_REQUEST from " + request.remoteAddress());
                final Session session = new Session(endpoint);
                session.machine.postFirstRecv();
                request.request().accept(session.qp, new ConnectionParameters().ird(1).ord(1));
                final String failure = session.run("the client at " + request.remoteAddress());
                session.close();
                if (null != failure)
                {
                    err.println("rping server failed: " + failure);
                    if (!options.persistent)
                    {
                        return EXIT_FAILED;
                    }
                }
            }
            while (options.persistent);
            return EXIT_OK;
        }
    }

    private int runClient(final Endpoint endpoint)
    {
        final Session session = new Session(endpoint);
        session.machine.postFirstRecv();
        final InetSocketAddress server = new InetSocketAddress(resolve(options.address), options.port);
        endpoint.rnic.connectionManager().connect(session.qp, server, new ConnectionParameters().ird(1).ord(1), null);
        final String failure = session.run("the server at " + server);
        session.close();
        if (null != failure)
        {
            err.println("rping client failed: " + failure);
            return EXIT_FAILED;
        }
        return EXIT_OK;
    }

    private static InetAddress resolve(final String host)
    {
        try
        {
            return InetAddress.getByName(host);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("cannot resolve address '" + host + "'");
        }
    }

    private void debug(final String message)
    {
        if (options.debug)
        {
            out.println(message);
        }
    }

    /** The engine, its connection events and an idle strategy for waiting, all on the calling thread. */
    private static final class Endpoint
    {
        final Rnic rnic;
        final IdleStrategy idle;
        final ArrayDeque<ConnectionEvent> events = new ArrayDeque<>();

        Endpoint(final Rnic rnic, final IdleStrategy idle)
        {
            this.rnic = rnic;
            this.idle = idle;
        }

        ConnectionEvent awaitConnectRequest()
        {
            while (true)
            {
                final int work = rnic.doWork() + rnic.connectionManager().poll(events::add, 16);
                for (final Iterator<ConnectionEvent> it = events.iterator(); it.hasNext(); )
                {
                    final ConnectionEvent event = it.next();
                    it.remove();
                    if (ConnectionEventType.CONNECT_REQUEST == event.type())
                    {
                        return event;
                    }
                }
                idle.idle(work);
            }
        }
    }

    /** One connection: its queue pair and buffers, and the {@link RpingSession} that runs the exchange on them. */
    private final class Session implements RpingSession.Verbs
    {
        private final Endpoint endpoint;
        private final CompletionQueue cq;
        private final QueuePair qp;
        private final MemoryRegion recvBuf;
        private final MemoryRegion sendBuf;
        private final MemoryRegion rdmaBuf;
        private final RpingSession machine;
        private final CompletionHandler onCompletion;
        private int remoteStag;
        private long remoteAddress;

        Session(final Endpoint endpoint)
        {
            this.endpoint = endpoint;
            final Rnic rnic = endpoint.rnic;
            final ProtectionDomain pd = rnic.allocateProtectionDomain();
            cq = rnic.createCompletionQueue(32);
            qp = pd.createQueuePair(new QueuePairAttributes().completionQueue(cq).sendQueueDepth(16)
                .receiveQueueDepth(2));
            recvBuf = pd.registerMemory(direct(RpingSession.INFO_LENGTH), Access.LOCAL_WRITE);
            sendBuf = pd.registerMemory(direct(RpingSession.INFO_LENGTH), 0);
            rdmaBuf = pd.registerMemory(direct(options.size), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            final MemoryRegion startBuf = options.client ?
                pd.registerMemory(direct(options.size), Access.REMOTE_READ) : null;
            machine = new RpingSession(options, out, recvBuf.buffer(), sendBuf.buffer(),
                new RpingSession.Region(rdmaBuf.buffer(), rdmaBuf.address(), rdmaBuf.stag()),
                null == startBuf ? null :
                    new RpingSession.Region(startBuf.buffer(), startBuf.address(), startBuf.stag()),
                this);
            onCompletion = (wc) ->
            {
                debug(wc.opcode().name().toLowerCase().replace('_', ' ') + " completion " + wc.status());
                machine.onCompletion(wc.workRequestId(), wc.opcode(), wc.status(), wc.byteLength());
            };
        }

        /**
         * Wait for the connection, then run the exchange until it ends.
         *
         * @param peer the peer, for messages.
         * @return null on success, else why it failed.
         */
        String run(final String peer)
        {
            final Rnic rnic = endpoint.rnic;
            boolean established = false;
            long lastProgressNs = System.nanoTime();
            while (!machine.finished())
            {
                // Events before completions: the event of a connection that ended carries the reason, the flushed
                // completions that follow it do not.
                int work = rnic.doWork() + rnic.connectionManager().poll(endpoint.events::add, 16);
                for (final Iterator<ConnectionEvent> it = endpoint.events.iterator(); it.hasNext(); )
                {
                    final ConnectionEvent event = it.next();
                    if (event.queuePair() != qp)
                    {
                        if (ConnectionEventType.CONNECT_REQUEST == event.type() && !options.persistent)
                        {
                            it.remove();
                            event.request().reject("rping server is busy with another client"
                                .getBytes(StandardCharsets.US_ASCII));
                        }
                        continue;
                    }
                    it.remove();
                    debug("cma_event type " + event.type() + (null != event.reason() ? ": " + event.reason() : ""));
                    if (ConnectionEventType.ESTABLISHED == event.type())
                    {
                        established = true;
                        lastProgressNs = System.nanoTime();
                        debug(options.client ? "rdma_connect successful" : "accepted " + event.remoteAddress());
                        machine.onEstablished();
                    }
                    else if (!established)
                    {
                        return "cma event " + event.type() + " from " + peer +
                            (null != event.reason() ? ": " + event.reason() : "");
                    }
                    else
                    {
                        machine.onConnectionEnded(peer + " " + describe(event));
                    }
                }
                final int completions = machine.finished() ? 0 : cq.poll(onCompletion, 16);
                work += completions;
                final long nowNs = System.nanoTime();
                if (completions > 0)
                {
                    lastProgressNs = nowNs;
                }
                else if (nowNs - lastProgressNs - WAIT_TIMEOUT_NS > 0 && !machine.finished())
                {
                    return "timed out after " + TimeUnit.NANOSECONDS.toSeconds(WAIT_TIMEOUT_NS) + " s " +
                        (established ? "waiting in state " + machine.waitingFor() : "connecting to " + peer);
                }
                endpoint.idle.idle(work);
            }
            return machine.succeeded() ? null : machine.failure() +
                (null != qp.errorReason() && !machine.failure().contains(qp.errorReason()) ?
                " (" + qp.errorReason() + ")" : "");
        }

        @Override
        public int postRecv()
        {
            return qp.postRecv(RpingSession.WR_RECV, recvBuf, 0, RpingSession.INFO_LENGTH);
        }

        @Override
        public int postSend()
        {
            debug("posted send");
            return qp.postSend(RpingSession.WR_SEND, sendBuf, 0, RpingSession.INFO_LENGTH, QueuePair.SIGNALED);
        }

        @Override
        public int postRead(final int length, final int stag, final long address)
        {
            remoteStag = stag;
            remoteAddress = address;
            debug("Received rkey " + Integer.toHexString(stag) + " addr " + Long.toHexString(address) + " len " +
                length + " from peer; posted rdma read");
            return qp.postRead(RpingSession.WR_READ, rdmaBuf, 0, length, stag, address, QueuePair.SIGNALED);
        }

        @Override
        public int postWrite(final int length, final int stag, final long address)
        {
            debug("rdma write from lkey " + Integer.toHexString(rdmaBuf.stag()) + " laddr " +
                Long.toHexString(rdmaBuf.address()) + " len " + length + " to rkey " + Integer.toHexString(stag) +
                " (read from rkey " + Integer.toHexString(remoteStag) + " addr " + Long.toHexString(remoteAddress) +
                ")");
            return qp.postWrite(RpingSession.WR_WRITE, rdmaBuf, 0, length, stag, address, QueuePair.SIGNALED);
        }

        void close()
        {
            if (!qp.state().isFinal())
            {
                qp.disconnect();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!qp.state().isFinal() && System.nanoTime() - deadline < 0)
                {
                    endpoint.idle.idle(endpoint.rnic.doWork() + cq.poll((wc) -> { }, 16));
                }
            }
            endpoint.rnic.connectionManager().poll(endpoint.events::add, 16);
            endpoint.events.removeIf((event) -> event.queuePair() == qp);
        }
    }

    private static String describe(final ConnectionEvent event)
    {
        if (null != event.terminateError())
        {
            return (event.terminateByPeer() ? "sent a Terminate: " : "was sent a Terminate: ") +
                event.terminateError() + (null != event.reason() ? " (" + event.reason() + ")" : "");
        }
        return (ConnectionEventType.DISCONNECTED == event.type() ? "disconnected" : event.type().name()) +
            (null != event.reason() ? ": " + event.reason() : "");
    }

    /**
     * Fill the ping buffer as rping does: "rdma-ping-N: " then characters cycling 'A'..'z' from {@code start},
     * NUL-terminated.
     */
    static void fillPattern(final UnsafeBuffer buffer, final int size, final int ping, final int start)
    {
        final byte[] prefix = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        final int prefixLength = Math.min(prefix.length, size - 1);
        buffer.putBytes(0, prefix, 0, prefixLength);
        int c = start;
        for (int i = prefixLength; i < size; i++)
        {
            buffer.putByte(i, (byte)c);
            c = c >= 'z' ? 'A' : c + 1;
        }
        buffer.putByte(size - 1, (byte)0);
    }

    static int strlen(final UnsafeBuffer buffer, final int limit)
    {
        for (int i = 0; i < limit; i++)
        {
            if (0 == buffer.getByte(i))
            {
                return i;
            }
        }
        return limit;
    }

    static String cString(final UnsafeBuffer buffer, final int limit)
    {
        return buffer.getStringWithoutLengthAscii(0, strlen(buffer, limit));
    }

    private static UnsafeBuffer direct(final int length)
    {
        return new UnsafeBuffer(java.nio.ByteBuffer.allocateDirect(length));
    }

    private static CrcPolicy crcPolicy(final String value)
    {
        try
        {
            return CrcPolicy.valueOf(value.toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("option --crc needs required, preferred or off, not '" + value + "'");
        }
    }

    private static String value(final String[] args, final int index, final String option)
    {
        if (index >= args.length)
        {
            throw new IllegalArgumentException("option " + option + " needs a value");
        }
        return args[index];
    }

    private static int number(final String[] args, final int index, final String option)
    {
        final String value = value(args, index, option);
        try
        {
            return Integer.parseInt(value);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("option " + option + " needs a number, not '" + value + "'");
        }
    }
}
