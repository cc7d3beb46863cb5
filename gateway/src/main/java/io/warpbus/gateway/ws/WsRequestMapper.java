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
package io.warpbus.gateway.ws;

import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.CommandProxy;
import io.warpbus.gateway.session.InstrumentInfo;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.ProtocolError;
import org.agrona.concurrent.NanoClock;

/**
 * Turns checked JSON requests into session-core commands, on the container's thread: values are validated here
 * (patterns, ranges, enumerations, decimal prices) and a bad one becomes an error naming the field; what the
 * business rules decide (entitlements, tick grid, limits) is the core's. Logons are authenticated here, before
 * anything reaches the core.
 */
final class WsRequestMapper
{
    static final int DEFAULT_HEARTBEAT_MS = 5000;
    private static final Pattern PRICE = Pattern.compile("(-?)([0-9]{1,18})(?:\\.([0-9]{1,18}))?");
    private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{32}");
    private static final Pattern TEST_ID = Pattern.compile("[\\x20-\\x7E]{1,32}");
    private static final Pattern SESSION_NAME = Pattern.compile(
        "[A-Za-z0-9._:\\-]{1," + CommandDescriptor.SESSION_NAME_WIDTH + "}");
    private static final Pattern API_KEY = Pattern.compile("[A-Za-z0-9._-]{8,64}");
    private static final Pattern SIGNATURE = Pattern.compile("[0-9a-fA-F]{64}");
    private static final int MAX_USERNAME = 64;
    private static final int MAX_PASSWORD = 1024;
    private static final int MIN_NONCE = 16;
    private static final int MAX_NONCE = 64;
    private static final long MAX_QUANTITY = 1_000_000_000_000_000L;
    private static final long OFFER_TIMEOUT_NS = 5_000_000L;

    private final CommandProxy commands;
    private final InstrumentRegistry instruments;
    private final Authenticator authenticator;
    private final NanoClock clock;

    WsRequestMapper(final CommandProxy commands, final InstrumentRegistry instruments,
        final Authenticator authenticator, final NanoClock clock)
    {
        this.commands = commands;
        this.instruments = instruments;
        this.authenticator = authenticator;
        this.clock = clock;
    }

    /**
     * The outcome of mapping a logon.
     *
     * @param submitted true if it reached the core.
     * @param failure   why it was refused, or null.
     */
    record LogonResult(boolean submitted, String failure)
    {
    }

    /**
     * Check a logon, authenticate it and hand it to the core. Every field is checked before the credentials, so that
     * a logon refused for a bad value neither spends its nonce nor counts as a failed or a good logon.
     *
     * @throws RequestException for missing or badly formed fields.
     */
    LogonResult logon(final ClientSocket connection, final JsonRequest request, final long receivedNs)
        throws RequestException
    {
        final String requestId = request.requestId();
        final boolean byKey = checkCredentialFields(request);
        final long heartbeatMs = request.has("heartbeatMs") ? request.integer("heartbeatMs") : DEFAULT_HEARTBEAT_MS;
        if (heartbeatMs < 1 || heartbeatMs > Integer.MAX_VALUE)
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field 'heartbeatMs' must be 1 to " +
                Integer.MAX_VALUE + " milliseconds", requestId);
        }
        final String name = request.has("session") ? request.string("session") : "default";
        if (!SESSION_NAME.matcher(name).matches())
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field 'session' must be 1 to " +
                CommandDescriptor.SESSION_NAME_WIDTH + " of A-Z a-z 0-9 . _ : -", requestId);
        }
        long resumeFrom = -1;
        long tokenHigh = 0;
        long tokenLow = 0;
        if (request.has("resume"))
        {
            final Map<String, Object> resume = request.object("resume");
            final String token = (String)resume.get("token");
            resumeFrom = (Long)resume.get("fromSeq");
            if (!TOKEN.matcher(token).matches() || resumeFrom < 1)
            {
                throw new RequestException(ProtocolError.INVALID_VALUE, "field 'resume' needs the session token " +
                    "(32 lower-case hex digits) and a fromSeq of 1 or more", requestId);
            }
            tokenHigh = Long.parseUnsignedLong(token.substring(0, 16), 16);
            tokenLow = Long.parseUnsignedLong(token.substring(16), 16);
        }

        // A drop copy also gets a copy of every fill of its user's accounts, from any session or gateway.
        final byte flags = request.flag("dropCopy", false) ? CommandDescriptor.LOGON_DROP_COPY : 0;
        final String logonName = byKey ? request.string("apiKey") : request.string("username");
        final Authenticator.Outcome outcome = byKey ?
            authenticator.apiKey(logonName, request.integer("timestamp"), request.string("nonce"),
                request.string("signature"), connection.host()) :
            authenticator.password(logonName, request.string("password"), connection.host());
        if (!outcome.succeeded())
        {
            return new LogonResult(false, outcome.failure());
        }
        connection.logonName(logonName);
        final long from = resumeFrom;
        final long high = tokenHigh;
        final long low = tokenLow;
        final int index = connection.connection().index();
        final boolean submitted = offer(() -> commands.logon(index, receivedNs, requestId, outcome.user().index(),
            (int)heartbeatMs, from, high, low, name, connection.address(), flags));
        return new LogonResult(submitted, submitted ? null : "the gateway is overloaded, try again");
    }

    /**
     * The fields of a logon's credentials, as the protocol's schema has them: either a user name and a password, or
     * an API key with its timestamp, nonce and signature, never both a user name and a key.
     *
     * @return true for an API-key logon, false for a password logon.
     * @throws RequestException naming the field that is missing or wrong; never its value.
     */
    private static boolean checkCredentialFields(final JsonRequest request) throws RequestException
    {
        if (request.has("apiKey"))
        {
            if (request.has("username"))
            {
                throw new RequestException(ProtocolError.INVALID_VALUE, "a logon has either 'username' and " +
                    "'password', or 'apiKey', 'timestamp', 'nonce' and 'signature': not both 'username' and 'apiKey'",
                    request.requestId());
            }
            require(request, "timestamp", "an API-key logon");
            require(request, "nonce", "an API-key logon");
            require(request, "signature", "an API-key logon");
            matches(request, "apiKey", API_KEY, "8 to 64 of A-Z a-z 0-9 . _ -");
            length(request, "nonce", MIN_NONCE, MAX_NONCE);
            matches(request, "signature", SIGNATURE, "64 hex digits, the HMAC-SHA256 of the logon");
            return true;
        }
        if (request.has("username"))
        {
            require(request, "password", "a password logon");
            length(request, "username", 1, MAX_USERNAME);
            length(request, "password", 1, MAX_PASSWORD);
            return false;
        }
        throw new RequestException(ProtocolError.MISSING_FIELD, "logon needs username and password, or apiKey, " +
            "timestamp, nonce and signature", request.requestId());
    }

    /**
     * Map any request but a logon to its command.
     *
     * @return false when the core's ring stayed full.
     * @throws RequestException for a bad value.
     */
    boolean map(final ClientSocket connection, final JsonRequest request, final long receivedNs)
        throws RequestException
    {
        final int index = connection.connection().index();
        final String requestId = request.requestId();
        switch (request.type())
        {
            case "logout":
                return offer(() -> commands.simple(CommandDescriptor.LOGOUT, index, receivedNs, requestId));
            case "openOrders":
                return offer(() -> commands.simple(CommandDescriptor.OPEN_ORDERS, index, receivedNs, requestId));
            case "instruments":
                return offer(() -> commands.simple(CommandDescriptor.INSTRUMENTS, index, receivedNs, requestId));
            case "heartbeat":
            case "testRequest":
            {
                final String testId = request.has("testId") ? request.string("testId") : null;
                if (null != testId && !TEST_ID.matcher(testId).matches())
                {
                    throw new RequestException(ProtocolError.INVALID_VALUE, "field 'testId' must be 1 to 32 " +
                        "printable ASCII characters", requestId);
                }
                final int type = "heartbeat".equals(request.type()) ? CommandDescriptor.HEARTBEAT :
                    CommandDescriptor.TEST_REQUEST;
                return offer(() -> commands.heartbeat(type, index, receivedNs, requestId, testId));
            }
            case "subscribe":
            case "unsubscribe":
            {
                final String symbol = symbol(request);
                final int instrumentId = instrumentId(symbol);
                final int type = "subscribe".equals(request.type()) ? CommandDescriptor.SUBSCRIBE :
                    CommandDescriptor.UNSUBSCRIBE;
                return offer(() -> commands.subscription(type, index, receivedNs, requestId, instrumentId, symbol));
            }
            case "newOrder":
                return newOrder(index, request, receivedNs);
            case "cancelOrder":
            {
                final String clientOrderId = clientOrderId(request);
                return offer(() -> commands.cancel(index, receivedNs, requestId, clientOrderId));
            }
            case "replaceOrder":
            {
                final String clientOrderId = clientOrderId(request);
                final long[] price = price(request, true);
                final long quantity = quantity(request);
                return offer(() -> commands.replace(index, receivedNs, requestId, clientOrderId, price[0],
                    (int)price[1], quantity));
            }
            default:
                throw new RequestException(ProtocolError.ALREADY_LOGGED_ON, "already logged on", requestId);
        }
    }

    /**
     * Hand a protocol error to the core, which answers it on the session.
     */
    boolean error(final ClientSocket connection, final RequestException error, final long receivedNs)
    {
        final int index = connection.connection().index();
        return offer(() -> commands.protocolError(index, receivedNs, error.requestId(), error.error(),
            error.getMessage()));
    }

    /**
     * Tell the core the socket is gone; retried until it takes it, as a lost {@code CLOSED} would leak the slot.
     */
    void closed(final ClientSocket connection)
    {
        final int index = connection.connection().index();
        final long receivedNs = clock.nanoTime();
        while (!commands.simple(CommandDescriptor.CLOSED, index, receivedNs, null))
        {
            Thread.onSpinWait();
        }
    }

    private boolean newOrder(final int index, final JsonRequest request, final long receivedNs)
        throws RequestException
    {
        final String requestId = request.requestId();
        final String clientOrderId = clientOrderId(request);
        final long account = request.integer("account");
        if (account < 0 || account > 0xFFFF_FFFFL)
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field 'account' must be 0 to 4294967295",
                requestId);
        }
        final String symbol = symbol(request);
        final int instrumentId = instrumentId(symbol);
        final byte side = choice(request, "side", null, new String[] { "buy", "sell" },
            new byte[] { CommandDescriptor.BUY, CommandDescriptor.SELL });
        final byte orderType = choice(request, "orderType", "limit", new String[] { "limit", "market" },
            new byte[] { CommandDescriptor.LIMIT, CommandDescriptor.MARKET });
        final byte timeInForce = choice(request, "timeInForce", "gtc", new String[] { "gtc", "ioc", "fok" },
            new byte[] { CommandDescriptor.GTC, CommandDescriptor.IOC, CommandDescriptor.FOK });
        final boolean postOnly = request.flag("postOnly", false);
        final long[] price = price(request, false);
        final long quantity = quantity(request);
        return offer(() -> commands.newOrder(index, receivedNs, requestId, clientOrderId, account, instrumentId,
            symbol, side, orderType, timeInForce, postOnly, price[0], (int)price[1], quantity));
    }

    private static void require(final JsonRequest request, final String field, final String what)
        throws RequestException
    {
        if (!request.has(field))
        {
            throw new RequestException(ProtocolError.MISSING_FIELD, "missing field '" + field + "' in " + what,
                request.requestId());
        }
    }

    private static void matches(final JsonRequest request, final String field, final Pattern pattern,
        final String what) throws RequestException
    {
        if (!pattern.matcher(request.string(field)).matches())
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field '" + field + "' must be " + what,
                request.requestId());
        }
    }

    /**
     * A string field's length in characters (code points, as JSON Schema counts them).
     */
    private static void length(final JsonRequest request, final String field, final int min, final int max)
        throws RequestException
    {
        final String value = request.string(field);
        final int length = value.codePointCount(0, value.length());
        if (length < min || length > max)
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field '" + field + "' must be " + min + " to " +
                max + " characters", request.requestId());
        }
    }

    private static String clientOrderId(final JsonRequest request) throws RequestException
    {
        final String id = request.string("clOrdId");
        if (!JsonProtocol.ID.matcher(id).matches())
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field 'clOrdId' must be 1 to 36 of " +
                "A-Z a-z 0-9 . _ : -", request.requestId());
        }
        return id;
    }

    private static String symbol(final JsonRequest request) throws RequestException
    {
        final String symbol = request.string("instrument");
        if (symbol.isEmpty() || symbol.length() > CommandDescriptor.SYMBOL_WIDTH)
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field 'instrument' must be a symbol of 1 to " +
                CommandDescriptor.SYMBOL_WIDTH + " characters", request.requestId());
        }
        return symbol;
    }

    private int instrumentId(final String symbol)
    {
        final InstrumentInfo info = instruments.get(symbol);
        return null == info ? -1 : info.id();
    }

    private static long quantity(final JsonRequest request) throws RequestException
    {
        final long quantity = request.integer("quantity");
        if (quantity > MAX_QUANTITY || quantity < -MAX_QUANTITY)
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field 'quantity' is out of range",
                request.requestId());
        }
        return quantity;
    }

    /**
     * A decimal price string as mantissa and decimals.
     *
     * @return {mantissa, decimals}, or {0, NO_PRICE} when absent and not required.
     */
    private static long[] price(final JsonRequest request, final boolean required) throws RequestException
    {
        if (!request.has("price"))
        {
            if (required)
            {
                throw new RequestException(ProtocolError.MISSING_FIELD, "missing field 'price'", request.requestId());
            }
            return new long[] { 0, CommandDescriptor.NO_PRICE };
        }
        final Matcher matcher = PRICE.matcher(request.string("price"));
        final String fraction = matcher.matches() ? matcher.group(3) : null;
        if (!matcher.matches() || matcher.group(2).length() + (null == fraction ? 0 : fraction.length()) > 18)
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field 'price' must be a decimal string of at " +
                "most 18 digits, such as \"101.25\"", request.requestId());
        }
        final long mantissa = Long.parseLong(matcher.group(1) + matcher.group(2) + (null == fraction ? "" : fraction));
        return new long[] { mantissa, null == fraction ? 0 : fraction.length() };
    }

    private static byte choice(final JsonRequest request, final String field, final String defaultValue,
        final String[] names, final byte[] codes) throws RequestException
    {
        final String value = request.has(field) ? request.string(field) : defaultValue;
        if (null == value)
        {
            throw new RequestException(ProtocolError.MISSING_FIELD, "missing field '" + field + "'",
                request.requestId());
        }
        for (int i = 0; i < names.length; i++)
        {
            if (names[i].equals(value))
            {
                return codes[i];
            }
        }
        throw new RequestException(ProtocolError.INVALID_VALUE, "field '" + field + "' must be one of " +
            String.join(", ", names) + ", not '" + JsonProtocol.printable(value) + "'", request.requestId());
    }

    private boolean offer(final BooleanSupplier command)
    {
        final long deadlineNs = clock.nanoTime() + OFFER_TIMEOUT_NS;
        while (!command.getAsBoolean())
        {
            if (clock.nanoTime() - deadlineNs > 0)
            {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }
}
