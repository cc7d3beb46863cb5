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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.TimeUnit;

import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrigClOrdID;
import quickfix.field.Side;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;
import quickfix.fix44.OrderCancelRequest;

/**
 * A scripted QuickFIX/J initiator in a JVM of its own, for tests that want the FIX client outside the gateway's JVM
 * ({@link ChildFixInitiator} drives it): it logs on ({@link FixTestClient}, password from {@code WARPBUS_PASSWORD}),
 * then reads one command a line from stdin and prints, on stdout, one line per event, each starting with
 * {@value #PREFIX} (QuickFIX/J's own log lines may come between):
 * <pre>
 *   stdin:  D CLORDID ACCOUNT buy|sell SYMBOL QTY PRICE        a limit NewOrderSingle
 *           D- CLORDID ACCOUNT buy|sell SYMBOL QTY PRICE TAG   the same without one tag
 *           F CLORDID ORIGCLORDID buy|sell SYMBOL              an OrderCancelRequest
 *           G CLORDID ORIGCLORDID buy|sell SYMBOL QTY PRICE    an OrderCancelReplaceRequest (limit)
 *           quit                                               log out and exit 0
 *   stdout: @@ logged-on | @@ logon-refused TEXT | @@ recv MESSAGE (SOH as '|') | @@ error TEXT | @@ bye
 * </pre>
 * Exit code 0 after quit, 1 when the logon is refused or not answered, 2 for bad arguments. It ends by itself after
 * its time limit, so a test that dies leaves no process behind.
 * <p>
 * {@code FixInitiatorMain PORT SENDER TARGET STORE_DIR USER TIME_LIMIT_S}
 */
public final class FixInitiatorMain
{
    static final String PREFIX = "@@ ";
    private static final long POLL_MS = 5;

    private FixInitiatorMain()
    {
    }

    public static void main(final String[] args) throws IOException, InterruptedException
    {
        final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (6 != args.length)
        {
            out.println(PREFIX + "error usage: PORT SENDER TARGET STORE_DIR USER TIME_LIMIT_S");
            System.exit(2);
        }
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[5]));
        final FixTestClient client = new FixTestClient(Integer.parseInt(args[0]), args[1], args[2], Path.of(args[3]),
            args[4], System.getenv("WARPBUS_PASSWORD"));
        client.start();
        final int exit = logOn(client, out) ? session(client, out, deadlineNs) : 1;
        client.close();
        out.println(PREFIX + "bye");
        System.exit(exit);
    }

    private static boolean logOn(final FixTestClient client, final PrintStream out) throws InterruptedException
    {
        final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FixTestClient.TIMEOUT_MS);
        while (System.nanoTime() - deadlineNs < 0)
        {
            if (client.isLoggedOn())
            {
                out.println(PREFIX + "logged-on");
                return true;
            }
            for (final Message message : client.received())
            {
                if (MsgType.LOGOUT.equals(FixTestClient.msgType(message)))
                {
                    out.println(PREFIX + "logon-refused " + FixTestClient.field(message, 58));
                    return false;
                }
            }
            Thread.sleep(POLL_MS);
        }
        out.println(PREFIX + "logon-refused no answer within " + FixTestClient.TIMEOUT_MS + " ms");
        return false;
    }

    private static int session(final FixTestClient client, final PrintStream out, final long deadlineNs)
        throws IOException, InterruptedException
    {
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int printed = 0;
        while (System.nanoTime() - deadlineNs < 0)
        {
            final List<Message> received = client.received();
            for (; printed < received.size(); printed++)
            {
                out.println(PREFIX + "recv " + received.get(printed).toString().replace('\u0001', '|'));
            }
            if (!in.ready())
            {
                Thread.sleep(POLL_MS);
                continue;
            }
            final String line = in.readLine();
            if (null == line || "quit".equals(line.trim()))
            {
                return 0;
            }
            try
            {
                client.send(command(line.trim().split(" +")));
            }
            catch (final RuntimeException ex)
            {
                out.println(PREFIX + "error " + line + ": " + ex.getMessage());
            }
        }
        out.println(PREFIX + "error time limit reached");
        return 1;
    }

    private static Message command(final String[] words)
    {
        switch (words[0])
        {
            case "D":
                return order(words);
            case "D-":
            {
                final Message order = order(words);
                order.removeField(Integer.parseInt(words[7]));
                return order;
            }
            case "F":
            {
                final OrderCancelRequest cancel = new OrderCancelRequest(new OrigClOrdID(words[2]),
                    new ClOrdID(words[1]), new Side(side(words[3])), new TransactTime(LocalDateTime.now()));
                cancel.setString(55, words[4]);
                return cancel;
            }
            case "G":
            {
                final OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest(new OrigClOrdID(words[2]),
                    new ClOrdID(words[1]), new Side(side(words[3])), new TransactTime(LocalDateTime.now()),
                    new OrdType(OrdType.LIMIT));
                replace.setString(55, words[4]);
                replace.setString(38, words[5]);
                replace.setString(44, words[6]);
                return replace;
            }
            default:
                throw new IllegalArgumentException("unknown command " + words[0]);
        }
    }

    private static Message order(final String[] words)
    {
        final NewOrderSingle order = new NewOrderSingle(new ClOrdID(words[1]), new Side(side(words[3])),
            new TransactTime(LocalDateTime.now()), new OrdType(OrdType.LIMIT));
        order.setString(1, words[2]);
        order.setString(55, words[4]);
        order.setString(38, words[5]);
        order.setString(44, words[6]);
        return order;
    }

    private static char side(final String word)
    {
        if ("buy".equals(word))
        {
            return Side.BUY;
        }
        if ("sell".equals(word))
        {
            return Side.SELL;
        }
        throw new IllegalArgumentException("side " + word + ": buy or sell");
    }
}
