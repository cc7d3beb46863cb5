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
package io.warpbus.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A FIX 4.4 initiator on a plain socket, for what QuickFIX/J's own initiator would never send: messages written
 * field by field, with a BodyLength (9) and CheckSum (10) it computes or that the test corrupts on purpose, and a
 * receive buffer as small as the test wants, read only when told to, so that a client that stops reading fills its
 * socket at once. It numbers its messages itself (MsgSeqNum 34) and reads whole messages, parsed into their tags.
 */
final class RawFixClient implements AutoCloseable
{
    static final char SOH = '\u0001';
    private static final DateTimeFormatter SENDING_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS");

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String senderCompId;
    private final String targetCompId;
    private final byte[] readBuffer = new byte[64 * 1024];
    private final StringBuilder pending = new StringBuilder();
    private int nextSeq = 1;

    /**
     * A parsed message: its fields in order, each tag's last value, and its raw text.
     *
     * @param ordered every field in order, as {tag, value}.
     * @param fields  tag to its last value.
     * @param raw     the message, SOH shown as '|'.
     */
    record Fix(List<String[]> ordered, Map<Integer, String> fields, String raw)
    {
        String get(final int tag)
        {
            return fields.get(tag);
        }

        String type()
        {
            return fields.get(35);
        }

        @Override
        public String toString()
        {
            return raw;
        }
    }

    RawFixClient(final int port, final String senderCompId, final String targetCompId, final int receiveBuffer)
    {
        this.senderCompId = senderCompId;
        this.targetCompId = targetCompId;
        try
        {
            socket = new Socket();
            if (receiveBuffer > 0)
            {
                socket.setReceiveBufferSize(receiveBuffer);
            }
            socket.setSoTimeout((int)FixTestClient.TIMEOUT_MS);
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The header and body of the next message, from MsgType on, without BeginString, BodyLength and CheckSum; takes
     * the next MsgSeqNum.
     *
     * @param msgType its MsgType (35).
     * @param body    its body fields, {@code tag=value} separated by '|'.
     * @return the fields from 35 to the end of the body, SOH-separated and SOH-terminated.
     */
    String next(final String msgType, final String body)
    {
        return next(msgType, nextSeq++, body);
    }

    /**
     * As {@link #next(String, String)} with a MsgSeqNum of the test's choice (which does not move the client's).
     */
    String next(final String msgType, final int seq, final String body)
    {
        final String header = "35=" + msgType + "|34=" + seq + "|49=" + senderCompId + "|52=" +
            LocalDateTime.now(ZoneOffset.UTC).format(SENDING_TIME) + "|56=" + targetCompId + "|";
        return (header + (body.isEmpty() ? "" : body + "|")).replace('|', SOH);
    }

    /**
     * Frame a message as FIX does: 8, 9 (the body's length), the body, 10 (the sum of every byte before it, mod
     * 256).
     *
     * @param body                as {@link #next} returns.
     * @param bodyLengthDelta     added to the true BodyLength (0 for a good one).
     * @param checkSumDelta       added to the true CheckSum, mod 256 (0 for a good one).
     * @return the whole message.
     */
    static String frame(final String body, final int bodyLengthDelta, final int checkSumDelta)
    {
        final String head = "8=FIX.4.4" + SOH + "9=" + (body.length() + bodyLengthDelta) + SOH + body;
        int sum = 0;
        for (final byte b : head.getBytes(StandardCharsets.US_ASCII))
        {
            sum += b & 0xFF;
        }
        return head + "10=" + String.format("%03d", (sum + checkSumDelta) & 0xFF) + SOH;
    }

    void send(final String message)
    {
        try
        {
            out.write(message.getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Send a good message: the next MsgSeqNum, true BodyLength and CheckSum.
     */
    void sendGood(final String msgType, final String body)
    {
        send(frame(next(msgType, body), 0, 0));
    }

    /**
     * Log on with a user's credentials and wait for the gateway's Logon.
     *
     * @return the gateway's Logon.
     */
    Fix logon(final String user, final String password, final int heartBtIntS)
    {
        sendGood("A", "98=0|108=" + heartBtIntS + "|553=" + user + "|554=" + password);
        final Fix answer = read(FixTestClient.TIMEOUT_MS);
        if (null == answer || !"A".equals(answer.type()))
        {
            throw new AssertionError("no Logon from the gateway: " + answer);
        }
        return answer;
    }

    /**
     * Read the next whole message.
     *
     * @param timeoutMs how long to wait for it.
     * @return the message, or null when none came in time or the connection ended.
     */
    Fix read(final long timeoutMs)
    {
        final long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true)
        {
            final Fix message = parse();
            if (null != message)
            {
                return message;
            }
            final long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0)
            {
                return null;
            }
            try
            {
                socket.setSoTimeout((int)Math.max(1, leftMs));
                final int read = in.read(readBuffer);
                if (read < 0)
                {
                    return null;
                }
                pending.append(new String(readBuffer, 0, read, StandardCharsets.US_ASCII));
            }
            catch (final SocketTimeoutException ex)
            {
                return null;
            }
            catch (final IOException ex)
            {
                return null;
            }
        }
    }

    /**
     * Read until a message matches, skipping others (at most 100,000 messages).
     *
     * @return the match.
     * @throws AssertionError when none comes within the test timeout.
     */
    Fix readUntil(final Predicate<Fix> match, final String what)
    {
        final long deadlineNs = System.nanoTime() + FixTestClient.TIMEOUT_MS * 1_000_000L;
        for (int i = 0; i < 100_000 && deadlineNs - System.nanoTime() > 0; i++)
        {
            final Fix message = read(Math.max(1, (deadlineNs - System.nanoTime()) / 1_000_000L));
            if (null == message)
            {
                break;
            }
            if (match.test(message))
            {
                return message;
            }
        }
        throw new AssertionError("no " + what + " from the gateway");
    }

    private Fix parse()
    {
        final int end = pending.indexOf(SOH + "10=");
        final int last = end < 0 ? -1 : pending.indexOf(String.valueOf(SOH), end + 1);
        if (last < 0)
        {
            return null;
        }
        final String raw = pending.substring(0, last + 1);
        pending.delete(0, last + 1);
        final Map<Integer, String> fields = new LinkedHashMap<>();
        final List<String[]> ordered = new ArrayList<>();
        for (final String field : raw.split(String.valueOf(SOH)))
        {
            final int equals = field.indexOf('=');
            if (equals > 0)
            {
                fields.put(Integer.parseInt(field.substring(0, equals)), field.substring(equals + 1));
                ordered.add(new String[] { field.substring(0, equals), field.substring(equals + 1) });
            }
        }
        return new Fix(ordered, fields, raw.replace(SOH, '|'));
    }

    int nextSeq()
    {
        return nextSeq;
    }

    void nextSeq(final int seq)
    {
        nextSeq = seq;
    }

    /**
     * A UTCTimestamp as FIX writes it.
     *
     * @param offsetMs from now.
     * @return {@code yyyyMMdd-HH:mm:ss.SSS}.
     */
    static String time(final long offsetMs)
    {
        return LocalDateTime.now(ZoneOffset.UTC).plusNanos(offsetMs * 1_000_000L).format(SENDING_TIME);
    }

    @Override
    public void close()
    {
        try
        {
            socket.close();
        }
        catch (final IOException ex)
        {
            // Closing anyway.
        }
    }
}
