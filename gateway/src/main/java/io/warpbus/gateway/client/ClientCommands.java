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
package io.warpbus.gateway.client;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;

/**
 * The command language of {@code ./warpbus client}, and the one-line rendering of what the gateway sends.
 * <pre>
 *   buy ACME 10 @ 100.25            a limit order (good till cancelled)
 *   sell ACME 10 @ 101 ioc          immediate or cancel; fok: fill or kill; post-only: never takes
 *   buy ACME 10                     a market order (immediate or cancel)
 *   ... account 101 id my-order-1   the account (default: the client's --account) and client order id
 *   cancel my-order-1 | amend my-order-1 100.30 20 | orders | instruments
 *   subscribe ACME | unsubscribe ACME | logout
 * </pre>
 */
final class ClientCommands
{
    private ClientCommands()
    {
    }

    /**
     * The request for a command line.
     *
     * @param line           the command.
     * @param defaultAccount the account when the command names none, or -1.
     * @param nextOrder      numbers generated client order ids.
     * @return the JSON request.
     * @throws IllegalArgumentException naming what is wrong with the line.
     */
    static String toJson(final String line, final long defaultAccount, final AtomicInteger nextOrder)
    {
        final String[] words = line.split("\\s+");
        final String verb = words[0].toLowerCase(Locale.ROOT);
        switch (verb)
        {
            case "buy":
            case "sell":
                return order(verb, words, defaultAccount, nextOrder);
            case "cancel":
                require(words, 2, "cancel ID");
                return "{\"type\":\"cancelOrder\",\"clOrdId\":" + GatewayClient.quote(words[1]) + "}";
            case "amend":
                require(words, 4, "amend ID PRICE QUANTITY");
                return "{\"type\":\"replaceOrder\",\"clOrdId\":" + GatewayClient.quote(words[1]) + ",\"price\":" +
                    GatewayClient.quote(words[2]) + ",\"quantity\":" + quantity(words[3]) + "}";
            case "orders":
                return "{\"type\":\"openOrders\"}";
            case "instruments":
                return "{\"type\":\"instruments\"}";
            case "subscribe":
            case "unsubscribe":
                require(words, 2, verb + " SYMBOL");
                return "{\"type\":\"" + verb + "\",\"instrument\":" + GatewayClient.quote(words[1]) + "}";
            case "logout":
                return "{\"type\":\"logout\"}";
            default:
                throw new IllegalArgumentException("unknown command '" + words[0] + "': buy, sell, cancel, amend, " +
                    "orders, instruments, subscribe, unsubscribe, logout");
        }
    }

    private static String order(final String side, final String[] words, final long defaultAccount,
        final AtomicInteger nextOrder)
    {
        require(words, 3, side + " SYMBOL QUANTITY [@ PRICE] [ioc|fok] [post-only] [account N] [id ID]");
        String price = null;
        String timeInForce = null;
        boolean postOnly = false;
        long account = defaultAccount;
        String id = null;
        for (int i = 3; i < words.length; i++)
        {
            final String word = words[i].toLowerCase(Locale.ROOT);
            switch (word)
            {
                case "@" -> price = value(words, ++i, "@ PRICE");
                case "ioc", "fok", "gtc" -> timeInForce = word;
                case "post-only" -> postOnly = true;
                case "account" -> account = quantity(value(words, ++i, "account N"));
                case "id" -> id = value(words, ++i, "id ID");
                default -> throw new IllegalArgumentException("unexpected '" + words[i] + "' in the order");
            }
        }
        if (account < 0)
        {
            throw new IllegalArgumentException("no account: add 'account N' or start the client with --account");
        }
        final StringBuilder json = new StringBuilder(160).append("{\"type\":\"newOrder\",\"clOrdId\":")
            .append(GatewayClient.quote(null == id ? "cli-" + System.currentTimeMillis() % 100_000_000 + "-" +
            nextOrder.incrementAndGet() : id))
            .append(",\"account\":").append(account)
            .append(",\"instrument\":").append(GatewayClient.quote(words[1]))
            .append(",\"side\":\"").append(side).append('"')
            .append(",\"quantity\":").append(quantity(words[2]));
        if (null == price)
        {
            json.append(",\"orderType\":\"market\",\"timeInForce\":\"").append(null == timeInForce ? "ioc" :
                timeInForce).append('"');
        }
        else
        {
            json.append(",\"price\":").append(GatewayClient.quote(price));
            if (null != timeInForce)
            {
                json.append(",\"timeInForce\":\"").append(timeInForce).append('"');
            }
        }
        if (postOnly)
        {
            json.append(",\"postOnly\":true");
        }
        return json.append('}').toString();
    }

    /**
     * One line for a message from the gateway.
     *
     * @param m the message.
     * @return the line.
     */
    static String describe(final JsonNode m)
    {
        final String type = m.path("type").asString();
        final String seq = "#" + m.path("seq").asLong() + " ";
        switch (type)
        {
            case "logon":
                return seq + "logged on as " + m.path("user").asString() + ", session " + m.path("session").asString() +
                    ", accounts " + m.path("accounts") + (m.has("resend") ? ", resending " + m.path("resend") : "");
            case "logonRejected":
                return "logon refused: " + m.path("reason").asString();
            case "executionReport":
                return seq + m.path("execType").asString() + " " + m.path("clOrdId").asString() + ": " +
                    m.path("side").asString() + " " + m.path("quantity").asLong() + " " +
                    m.path("instrument").asString() + " @ " + m.path("price").asString() + ", filled " +
                    m.path("cumQuantity").asLong() + (0 != m.path("lastQuantity").asLong() ? " (last " +
                    m.path("lastQuantity").asLong() + " @ " + m.path("lastPrice").asString() + ")" : "") +
                    ", leaves " + m.path("leavesQuantity").asLong() + ", " + m.path("orderStatus").asString() +
                    (0 != m.path("reason").asInt() ? ", reason " + m.path("reason").asInt() + " " +
                    m.path("text").asString() : "");
            case "trade":
                return seq + "trade " + m.path("instrument").asString() + " " + m.path("quantity").asLong() + " @ " +
                    m.path("price").asString() + (m.has("aggressor") ? " (" + m.path("aggressor").asString() +
                    ")" : "");
            case "book":
                return seq + "book " + m.path("instrument").asString() + " (" + m.path("reason").asString() +
                    ") bids " + m.path("bids") + " asks " + m.path("asks");
            case "bookUpdate":
                return seq + "update " + m.path("instrument").asString() + " " + m.path("changes");
            case "error":
                return seq + "error " + m.path("code").asString() + ": " + m.path("text").asString();
            case "logout":
                return seq + "logged out: " + m.path("reason").asString();
            default:
                return seq + m.toString();
        }
    }

    private static void require(final String[] words, final int count, final String form)
    {
        if (words.length < count)
        {
            throw new IllegalArgumentException("usage: " + form);
        }
    }

    private static String value(final String[] words, final int index, final String form)
    {
        if (index >= words.length)
        {
            throw new IllegalArgumentException("usage: ... " + form);
        }
        return words[index];
    }

    private static long quantity(final String text)
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not a whole number");
        }
    }
}
