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
package io.warpbus.iwarp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import io.warpbus.iwarp.ddp.DdpHeaderFlyweight;
import io.warpbus.iwarp.mpa.Fpdu;
import io.warpbus.iwarp.mpa.MpaFrameFlyweight;
import io.warpbus.iwarp.rdmap.RdmapOpcode;
import io.warpbus.iwarp.rdmap.ReadRequestFlyweight;
import io.warpbus.iwarp.rdmap.TerminateFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A hand-driven iWARP peer over a plain blocking socket: it sends exactly the bytes a test builds, malformed or
 * not, and reads back what the engine sends. Public so that tests of the tools can play a peer too.
 */
public final class RawPeer implements AutoCloseable
{
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(1 << 17);
    private final UnsafeBuffer buffer = new UnsafeBuffer(scratch);
    boolean crcEnabled = true;
    int sendMsn = 1;
    int readMsn = 1;
    byte[] lastTerminate;

    public RawPeer(final InetSocketAddress address) throws IOException
    {
        socket = new Socket();
        socket.connect(address, 5000);
        socket.setSoTimeout(5000);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    public void sendRaw(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
    }

    /**
     * Send an MPA request: rev 2 with CRC, peer-to-peer with a zero-length write RTR, IRD/ORD as given.
     */
    public void sendRequest(final int ird, final int ord, final byte[] privateData) throws IOException
    {
        final int length = MpaFrameFlyweight.encode(buffer, 0, MpaFrameFlyweight.Kind.REQUEST,
            crcEnabled ? MpaFrameFlyweight.FLAG_CRC : 0, 2, true,
            MpaFrameFlyweight.ENHANCED_PEER_TO_PEER | ird, MpaFrameFlyweight.ENHANCED_RTR_WRITE | ord, privateData);
        sendRaw(bytes(0, length));
    }

    /**
     * Read the reply and check it accepts.
     *
     * @return the reply frame bytes.
     */
    public byte[] readReply() throws IOException
    {
        final byte[] header = readFully(MpaFrameFlyweight.HEADER_LENGTH);
        final UnsafeBuffer view = new UnsafeBuffer(header);
        final int pdLength = view.getShort(18, java.nio.ByteOrder.BIG_ENDIAN) & 0xFFFF;
        final byte[] frame = new byte[MpaFrameFlyweight.HEADER_LENGTH + pdLength];
        System.arraycopy(header, 0, frame, 0, header.length);
        System.arraycopy(readFully(pdLength), 0, frame, header.length, pdLength);
        return frame;
    }

    /** Send the zero-length RDMA Write that serves as the RTR. */
    public void sendWriteRtr() throws IOException
    {
        sendTagged(RdmapOpcode.WRITE, 0, 0L, new byte[0], true);
    }

    void sendTagged(final int opcode, final int stag, final long taggedOffset, final byte[] payload, final boolean last)
        throws IOException
    {
        sendTagged(DdpHeaderFlyweight.VERSION, RdmapOpcode.control(opcode), stag, taggedOffset, payload, last);
    }

    void sendTagged(
        final int ddpVersion,
        final int rdmapControl,
        final int stag,
        final long taggedOffset,
        final byte[] payload,
        final boolean last) throws IOException
    {
        sendRaw(taggedFpdu(ddpVersion, rdmapControl, stag, taggedOffset, payload, last));
    }

    public byte[] taggedFpdu(
        final int ddpVersion,
        final int rdmapControl,
        final int stag,
        final long taggedOffset,
        final byte[] payload,
        final boolean last)
    {
        DdpHeaderFlyweight.putTagged(buffer, 2, last, rdmapControl, stag, taggedOffset);
        buffer.putByte(2, (byte)((buffer.getByte(2) & ~3) | ddpVersion));
        buffer.putBytes(2 + DdpHeaderFlyweight.TAGGED_HEADER_LENGTH, payload);
        return frame(DdpHeaderFlyweight.TAGGED_HEADER_LENGTH + payload.length);
    }

    void sendUntagged(
        final int rdmapControl,
        final int rsvdUlp32,
        final int queueNumber,
        final int msn,
        final int messageOffset,
        final byte[] payload,
        final boolean last) throws IOException
    {
        sendRaw(untaggedFpdu(DdpHeaderFlyweight.VERSION, rdmapControl, rsvdUlp32, queueNumber, msn, messageOffset,
            payload, last));
    }

    public byte[] untaggedFpdu(
        final int ddpVersion,
        final int rdmapControl,
        final int rsvdUlp32,
        final int queueNumber,
        final int msn,
        final int messageOffset,
        final byte[] payload,
        final boolean last)
    {
        DdpHeaderFlyweight.putUntagged(buffer, 2, last, rdmapControl, rsvdUlp32, queueNumber, msn, messageOffset);
        buffer.putByte(2, (byte)((buffer.getByte(2) & ~3) | ddpVersion));
        buffer.putBytes(2 + DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH, payload);
        return frame(DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH + payload.length);
    }

    public void sendSend(final byte[] payload) throws IOException
    {
        sendRaw(sendFpdu(payload));
    }

    /**
     * Frame a whole Send message in one FPDU, with the next MSN of the Send queue.
     *
     * @param payload the message.
     * @return the FPDU's bytes.
     */
    public byte[] sendFpdu(final byte[] payload)
    {
        return untaggedFpdu(DdpHeaderFlyweight.VERSION, RdmapOpcode.control(RdmapOpcode.SEND), 0,
            DdpHeaderFlyweight.QN_SEND, sendMsn++, 0, payload, true);
    }

    byte[] readRequestFpdu(
        final int sinkStag, final long sinkTo, final int size, final int sourceStag, final long sourceTo)
    {
        final byte[] header = new byte[ReadRequestFlyweight.LENGTH];
        ReadRequestFlyweight.put(new UnsafeBuffer(header), 0, sinkStag, sinkTo, size, sourceStag, sourceTo);
        return untaggedFpdu(DdpHeaderFlyweight.VERSION, RdmapOpcode.control(RdmapOpcode.READ_REQUEST), 0,
            DdpHeaderFlyweight.QN_READ_REQUEST, readMsn++, 0, header, true);
    }

    /** Frame the ULPDU at offset 2 of the scratch buffer: length, pad, CRC. */
    private byte[] frame(final int ulpduLength)
    {
        final int crcOffset = Fpdu.frame(buffer, 0, ulpduLength);
        Fpdu.putCrc(buffer, crcOffset, crcEnabled ? Fpdu.crc32c(crc, scratch, 0, crcOffset) : 0);
        return bytes(0, crcOffset + Fpdu.CRC_LENGTH);
    }

    /**
     * Read one FPDU and check its CRC.
     *
     * @return the ULPDU.
     */
    public byte[] readFpdu() throws IOException
    {
        final byte[] lengthField = readFully(2);
        final int ulpduLength = ((lengthField[0] & 0xFF) << 8) | (lengthField[1] & 0xFF);
        final byte[] rest = readFully(Fpdu.fpduLength(ulpduLength) - 2);
        final byte[] fpdu = new byte[2 + rest.length];
        fpdu[0] = lengthField[0];
        fpdu[1] = lengthField[1];
        System.arraycopy(rest, 0, fpdu, 2, rest.length);
        if (crcEnabled)
        {
            final ByteBuffer direct = ByteBuffer.allocateDirect(fpdu.length);
            direct.put(fpdu).flip();
            final int computed = Fpdu.crc32c(new CRC32C(), direct, 0, fpdu.length - 4);
            final int received = Fpdu.getCrc(new UnsafeBuffer(fpdu), fpdu.length - 4);
            if (computed != received)
            {
                throw new IOException("bad CRC from the engine: " + Integer.toHexString(received) + " != " +
                    Integer.toHexString(computed));
            }
        }
        final byte[] ulpdu = new byte[ulpduLength];
        System.arraycopy(fpdu, 2, ulpdu, 0, ulpduLength);
        return ulpdu;
    }

    /**
     * Read FPDUs until a Terminate arrives.
     *
     * @return a flyweight over the Terminate header (after the untagged DDP header).
     */
    TerminateFlyweight readTerminate() throws IOException
    {
        for (int i = 0; i < 1000; i++)
        {
            final byte[] ulpdu = readFpdu();
            final UnsafeBuffer view = new UnsafeBuffer(ulpdu);
            final DdpHeaderFlyweight ddp = new DdpHeaderFlyweight().wrap(view, 0);
            if (!ddp.isTagged() && RdmapOpcode.TERMINATE == RdmapOpcode.opcode(ddp.rsvdUlp()))
            {
                if (DdpHeaderFlyweight.QN_TERMINATE != ddp.queueNumber())
                {
                    throw new IOException("Terminate on queue " + ddp.queueNumber());
                }
                lastTerminate = ulpdu;
                return new TerminateFlyweight().wrap(view, DdpHeaderFlyweight.UNTAGGED_HEADER_LENGTH);
            }
        }
        throw new IOException("no Terminate in 1000 FPDUs");
    }

    /**
     * Wait until the engine closes the connection.
     *
     * @return true when end of stream was seen within the socket timeout.
     */
    public boolean awaitClosed() throws IOException
    {
        final byte[] sink = new byte[4096];
        try
        {
            while (true)
            {
                if (in.read(sink) < 0)
                {
                    return true;
                }
            }
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final IOException ex)
        {
            return true;
        }
    }

    public void shutdownOutput() throws IOException
    {
        socket.shutdownOutput();
    }

    byte[] readFully(final int length) throws IOException
    {
        final byte[] bytes = new byte[length];
        int read = 0;
        while (read < length)
        {
            final int n = in.read(bytes, read, length - read);
            if (n < 0)
            {
                throw new IOException("connection closed after " + read + " of " + length + " bytes");
            }
            read += n;
        }
        return bytes;
    }

    private byte[] bytes(final int offset, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return bytes;
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
