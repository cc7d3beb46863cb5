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
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.Access;
import io.warpbus.iwarp.CompletionOpcode;
import io.warpbus.iwarp.CompletionQueue;
import io.warpbus.iwarp.CompletionStatus;
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
import io.warpbus.iwarp.WorkCompletion;
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
    private static final int INFO_LENGTH = 16;
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

    static int run(final String[] args, final PrintStream out, final PrintStream err)
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
        err.println("usage: warpbus rping -s [-vVdP] [-S size] [-C count] [-a addr] [-p port]");
        err.println("       warpbus rping -c [-vVd] [-S size] [-C count] -a addr [-p port]");
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
    }

    private int run()
    {
        final RnicContext context = new RnicContext().name("rping").threadingMode(ThreadingMode.INVOKER)
            .ird(1).ord(1);
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
                final ConnectionEvent request = endpoint.awaitEvent(ConnectionEventType.CONNECT_REQUEST,
                    Long.MAX_VALUE);
                debug("cma_event type CONNECT_REQUEST from " + request.remoteAddress());
                final Session session = new Session(endpoint);
                session.postRecv();
                request.request().accept(session.qp, new ConnectionParameters().ird(1).ord(1));
                session.awaitEstablished();
                final int result = session.serve();
                session.close();
                if (EXIT_OK != result || !options.persistent)
                {
                    return result;
                }
            }
            while (true);
        }
    }

    private int runClient(final Endpoint endpoint)
    {
        final Session session = new Session(endpoint);
        session.postRecv();
        final InetSocketAddress server = new InetSocketAddress(resolve(options.address), options.port);
        endpoint.rnic.connectionManager().connect(session.qp, server, new ConnectionParameters().ird(1).ord(1), null);
        session.awaitEstablished();
        debug("rdma_connect successful");
        final int result = session.ping();
        session.close();
        return result;
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

    /** The engine, its events and an idle strategy for waiting, all on the calling thread. */
    private static final class Endpoint
    {
        final Rnic rnic;
        final IdleStrategy idle;
        final List<ConnectionEvent> events = new ArrayList<>();

        Endpoint(final Rnic rnic, final IdleStrategy idle)
        {
            this.rnic = rnic;
            this.idle = idle;
        }

        ConnectionEvent awaitEvent(final ConnectionEventType type, final long timeoutNs)
        {
            final long deadline = timeoutNs == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + timeoutNs;
            while (true)
            {
                final ConnectionEvent event = takeEvent();
                if (null != event)
                {
                    if (event.type() == type)
                    {
                        return event;
                    }
                    if (ConnectionEventType.CONNECT_REQUEST != event.type())
                    {
                        throw new IllegalStateException("cma event " + event.type() +
                            (null != event.reason() ? ": " + event.reason() : ""));
                    }
                }
                if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException("timed out waiting for " + type);
                }
                idle.idle(rnic.doWork());
            }
        }

        ConnectionEvent takeEvent()
        {
            rnic.connectionManager().poll(events::add, 16);
            return events.isEmpty() ? null : events.remove(0);
        }
    }

    /** One connection's queue pair, buffers and the rping exchange. */
    private final class Session
    {
        private final Endpoint endpoint;
        private final CompletionQueue cq;
        private final QueuePair qp;
        private final MemoryRegion recvBuf;
        private final MemoryRegion sendBuf;
        private final MemoryRegion rdmaBuf;
        private final MemoryRegion startBuf;
        private final Completion completion = new Completion();
        private boolean disconnected;

        Session(final Endpoint endpoint)
        {
            this.endpoint = endpoint;
            final Rnic rnic = endpoint.rnic;
            final ProtectionDomain pd = rnic.allocateProtectionDomain();
            cq = rnic.createCompletionQueue(32);
            qp = pd.createQueuePair(new QueuePairAttributes().completionQueue(cq).sendQueueDepth(16)
                .receiveQueueDepth(2));
            recvBuf = pd.registerMemory(direct(INFO_LENGTH), Access.LOCAL_WRITE);
            sendBuf = pd.registerMemory(direct(INFO_LENGTH), 0);
            rdmaBuf = pd.registerMemory(direct(options.size), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            startBuf = options.client ? pd.registerMemory(direct(options.size), Access.REMOTE_READ) : null;
        }

        void postRecv()
        {
            check(qp.postRecv(1, recvBuf, 0, INFO_LENGTH), "post recv");
        }

        void awaitEstablished()
        {
            endpoint.awaitEvent(ConnectionEventType.ESTABLISHED, WAIT_TIMEOUT_NS);
        }

        int serve()
        {
            while (true)
            {
                if (!awaitCompletion(CompletionOpcode.RECV))
                {
                    return EXIT_OK;
                }
                final long remoteAddress = recvBuf.buffer().getLong(0, ByteOrder.BIG_ENDIAN);
                final int remoteStag = recvBuf.buffer().getInt(8, ByteOrder.BIG_ENDIAN);
                final int remoteLength = recvBuf.buffer().getInt(12, ByteOrder.BIG_ENDIAN);
                debug("Received rkey " + Integer.toHexString(remoteStag) + " addr " + Long.toHexString(remoteAddress) +
                    " len " + remoteLength + " from peer");
                postRecv();
                if (remoteLength < 0 || remoteLength > options.size)
                {
                    err.println("client ping of " + remoteLength + " bytes does not fit this server's " +
                        options.size + "-byte buffer (-S)");
                    return EXIT_FAILED;
                }
                check(qp.postRead(2, rdmaBuf, 0, remoteLength, remoteStag, remoteAddress, QueuePair.SIGNALED),
                    "post read");
                debug("server posted rdma read req");
                if (!awaitCompletion(CompletionOpcode.RDMA_READ))
                {
                    return EXIT_FAILED;
                }
                if (options.verbose)
                {
                    out.println("server ping data: " + cString(rdmaBuf.buffer(), options.size));
                }
                sendInfo(0, 0, 0);
                debug("server posted go ahead");

                if (!awaitCompletion(CompletionOpcode.RECV))
                {
                    return EXIT_FAILED;
                }
                final long sinkAddress = recvBuf.buffer().getLong(0, ByteOrder.BIG_ENDIAN);
                final int sinkStag = recvBuf.buffer().getInt(8, ByteOrder.BIG_ENDIAN);
                final int sinkLength = recvBuf.buffer().getInt(12, ByteOrder.BIG_ENDIAN);
                postRecv();
                final int length = Math.min(strlen(rdmaBuf.buffer(), options.size) + 1, options.size);
                if (length > sinkLength)
                {
                    err.println("client sink of " + sinkLength + " bytes is smaller than the " + length +
                        "-byte ping");
                    return EXIT_FAILED;
                }
                debug("rdma write from lkey " + Integer.toHexString(rdmaBuf.stag()) + " laddr " +
                    Long.toHexString(rdmaBuf.address()) + " len " + length);
                check(qp.postWrite(3, rdmaBuf, 0, length, sinkStag, sinkAddress, QueuePair.SIGNALED), "post write");
                if (!awaitCompletion(CompletionOpcode.RDMA_WRITE))
                {
                    return EXIT_FAILED;
                }
                sendInfo(0, 0, 0);
                debug("server posted go ahead");
            }
        }

        int ping()
        {
            int start = 'A';
            for (int ping = 0; 0 == options.count || ping < options.count; ping++)
            {
                fillPattern(startBuf.buffer(), options.size, ping, start);
                start = start >= 'z' ? 'A' : start + 1;

                sendInfo(startBuf.address(), startBuf.stag(), options.size);
                if (!awaitCompletion(CompletionOpcode.RECV))
                {
                    err.println("wait for RDMA_WRITE_ADV state: " + disconnectReason());
                    return EXIT_FAILED;
                }
                postRecv();
                sendInfo(rdmaBuf.address(), rdmaBuf.stag(), options.size);
                if (!awaitCompletion(CompletionOpcode.RECV))
                {
                    err.println("wait for RDMA_WRITE_COMPLETE state: " + disconnectReason());
                    return EXIT_FAILED;
                }
                postRecv();
                if (options.validate)
                {
                    for (int i = 0; i < options.size; i++)
                    {
                        if (startBuf.buffer().getByte(i) != rdmaBuf.buffer().getByte(i))
                        {
                            err.println("data mismatch!");
                            return EXIT_FAILED;
                        }
                    }
                }
                if (options.verbose)
                {
                    out.println("ping data: " + cString(rdmaBuf.buffer(), options.size));
                }
                rdmaBuf.buffer().setMemory(0, options.size, (byte)0);
            }
            return EXIT_OK;
        }

        private void sendInfo(final long address, final int stag, final int length)
        {
            final UnsafeBuffer info = sendBuf.buffer();
            info.putLong(0, address, ByteOrder.BIG_ENDIAN);
            info.putInt(8, stag, ByteOrder.BIG_ENDIAN);
            info.putInt(12, length, ByteOrder.BIG_ENDIAN);
            check(qp.postSend(4, sendBuf, 0, INFO_LENGTH, QueuePair.SIGNALED), "post send");
            if (!awaitCompletion(CompletionOpcode.SEND))
            {
                throw new IllegalStateException("send failed: " + disconnectReason());
            }
            debug("send completion");
        }

        /**
         * Wait for a completion of the given kind.
         *
         * @return false when the peer disconnected first.
         */
        private boolean awaitCompletion(final CompletionOpcode opcode)
        {
            final long deadline = System.nanoTime() + WAIT_TIMEOUT_NS;
            while (true)
            {
                if (cq.poll(completion, 1) > 0)
                {
                    if (CompletionStatus.SUCCESS != completion.status)
                    {
                        if (CompletionStatus.WORK_REQUEST_FLUSHED == completion.status)
                        {
                            disconnected = true;
                            return false;
                        }
                        throw new IllegalStateException("cq completion failed status " + completion.status +
                            (null != qp.errorReason() ? ": " + qp.errorReason() : ""));
                    }
                    if (CompletionOpcode.RECV == completion.opcode && INFO_LENGTH != completion.byteLength)
                    {
                        throw new IllegalStateException("Received bogus data, size " + completion.byteLength);
                    }
                    debug(completion.opcode.name().toLowerCase().replace('_', ' ') + " completion");
                    if (completion.opcode == opcode)
                    {
                        return true;
                    }
                    continue;
                }
                final ConnectionEvent event = endpoint.takeEvent();
                if (null != event)
                {
                    debug("cma_event type " + event.type() + (null != event.reason() ? ": " + event.reason() : ""));
                    if (ConnectionEventType.DISCONNECTED == event.type())
                    {
                        debug((options.server ? "server" : "client") + " DISCONNECT EVENT...");
                        disconnected = true;
                        return false;
                    }
                }
                if (System.nanoTime() - deadline > 0)
                {
                    throw new IllegalStateException("timed out waiting for " + opcode + " completion");
                }
                endpoint.idle.idle(endpoint.rnic.doWork());
            }
        }

        private String disconnectReason()
        {
            return disconnected ? "peer disconnected" + (null != qp.errorReason() ? ": " + qp.errorReason() : "") :
                String.valueOf(qp.errorReason());
        }

        void close()
        {
            if (!qp.state().isFinal())
            {
                qp.disconnect();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (!qp.state().isFinal() && System.nanoTime() - deadline < 0)
                {
                    endpoint.idle.idle(endpoint.rnic.doWork());
                }
            }
            endpoint.takeEvent();
        }
    }

    /** The last polled completion, copied. */
    private static final class Completion implements io.warpbus.iwarp.CompletionHandler
    {
        CompletionOpcode opcode;
        CompletionStatus status;
        int byteLength;

        @Override
        public void onCompletion(final WorkCompletion wc)
        {
            opcode = wc.opcode();
            status = wc.status();
            byteLength = wc.byteLength();
        }
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

    private static void check(final int result, final String what)
    {
        if (QueuePair.POSTED != result)
        {
            throw new IllegalStateException(what + " error " + result);
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
