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

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.warpbus.gateway.security.Authenticator;
import io.warpbus.gateway.security.AuthenticatorFixtures;
import io.warpbus.gateway.session.CommandDescriptor;
import io.warpbus.gateway.session.ConnectionTable;
import io.warpbus.gateway.session.CoreStandIn;
import io.warpbus.gateway.session.GatewayCounterDescriptor;
import io.warpbus.gateway.session.GatewayCounters;
import io.warpbus.gateway.session.InstrumentRegistry;
import io.warpbus.gateway.session.ProtocolError;
import org.agrona.CloseHelper;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static io.warpbus.gateway.security.AuthenticatorFixtures.BOB_KEY;
import static io.warpbus.gateway.security.AuthenticatorFixtures.BOB_SECRET;
import static io.warpbus.gateway.security.AuthenticatorFixtures.bcrypt;
import static io.warpbus.gateway.security.AuthenticatorFixtures.bobApiKey;
import static io.warpbus.gateway.security.AuthenticatorFixtures.credentials;
import static io.warpbus.gateway.security.AuthenticatorFixtures.writeCredentials;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The adapter's checks of requests, against a real authenticator and the command ring the session core would read:
 * a logon's every field is checked before its credentials, so that one refused for a bad value neither spends its
 * nonce nor counts as a good or a failed logon; and the adapter accepts a logon or an order's price exactly when the
 * protocol's JSON Schema does.
 */
@Timeout(60)
class WsRequestMapperTest
{
    private static final Schema SCHEMA = loadSchema();

    @TempDir
    Path dir;
    private final CachedEpochClock clock = AuthenticatorFixtures.clock();
    private final ManyToOneRingBuffer ring = new ManyToOneRingBuffer(new UnsafeBuffer(
        ByteBuffer.allocateDirect(64 * 1024 + RingBufferDescriptor.TRAILER_LENGTH)));
    private final JsonProtocol protocol = new JsonProtocol();
    private GatewayCounters counters;
    private ConnectionTable connections;
    private WsRequestMapper mapper;
    private int nextAddress;

    @BeforeEach
    void setUp()
    {
        final Path file = writeCredentials(dir, "{\"users\":[" +
            "{\"name\":\"alice\",\"password\":\"" + bcrypt("alice-pw") + "\",\"accounts\":[101]}," +
            "{\"name\":\"bob\",\"accounts\":[201],\"apiKeys\":[" + bobApiKey() + "]}]}");
        counters = new GatewayCounters(dir.resolve("counters"));
        connections = new ConnectionTable(2, 64 * 1024);
        final Authenticator authenticator =
            AuthenticatorFixtures.authenticator(credentials(file), 3, counters, clock);
        mapper = new WsRequestMapper(CoreStandIn.commands(ring),
            new InstrumentRegistry(1_000_000, Map.of(), new HashSet<>()), authenticator, SystemNanoClock.INSTANCE);
    }

    @AfterEach
    void tearDown()
    {
        CloseHelper.quietCloseAll(connections, counters);
    }

    @Test
    void shouldCheckEveryFieldOfALogonBeforeItsCredentialsSoThatItsNonceIsNotSpent() throws RequestException
    {
        final String nonce = "nonce-checked-first-01";
        final String signed = signedKeyLogon(nonce);
        final String[] bad = {
            ",\"heartbeatMs\":0", "field 'heartbeatMs' must be 1 to 2147483647 milliseconds",
            ",\"session\":\"" + "s".repeat(33) + "\"", "field 'session' must be 1 to 32 of",
            ",\"session\":\"with space\"", "field 'session'",
            ",\"resume\":{\"token\":\"not-a-token\",\"fromSeq\":1}", "field 'resume'",
            ",\"resume\":{\"token\":\"" + "0".repeat(32) + "\",\"fromSeq\":0}", "field 'resume'",
        };
        for (int i = 0; i < bad.length; i += 2)
        {
            final String message = signed + bad[i] + "}";
            final RequestException error = assertThrows(RequestException.class, () -> logon(message), message);
            assertEquals(ProtocolError.INVALID_VALUE, error.error(), message);
            assertTrue(error.getMessage().startsWith(bad[i + 1]), error.getMessage());
        }
        assertEquals(0, ring.size(), "nothing reached the core");
        assertEquals(0, failures(), "nor counted as a failed logon");

        final WsRequestMapper.LogonResult result = logon(signed + "}");
        assertEquals(new WsRequestMapper.LogonResult(true, null), result, "the nonce was not spent");
        assertEquals(1, commands().size());
    }

    @Test
    void shouldNotForgiveFailedLogonsForALogonRefusedForABadField() throws RequestException
    {
        assertFalse(logon(password("alice", "guess-1", "")).submitted());
        assertFalse(logon(password("alice", "guess-2", "")).submitted());
        final String badSession = password("alice", "alice-pw", ",\"session\":\"" + "s".repeat(33) + "\"");
        assertThrows(RequestException.class, () -> logon(badSession));
        assertEquals(2, failures());
        assertFalse(logon(password("alice", "guess-3", "")).submitted());

        final WsRequestMapper.LogonResult throttled = logon(password("alice", "alice-pw", ""));
        assertFalse(throttled.submitted());
        assertTrue(throttled.failure().startsWith("throttled: too many failed logons"), throttled.failure());
        assertEquals(0, ring.size());
    }

    @Test
    void shouldRefuseALogonWithBothAUserNameAndAnApiKey()
    {
        final String both = signedKeyLogon("nonce-with-a-username-1") + ",\"username\":\"alice\",\"password\":" +
            "\"alice-pw\"}";
        assertFalse(SCHEMA.validate(both, InputFormat.JSON).isEmpty(), "the schema refuses it");
        final RequestException error = assertThrows(RequestException.class, () -> logon(both));
        assertEquals(ProtocolError.INVALID_VALUE, error.error());
        assertTrue(error.getMessage().contains("not both 'username' and 'apiKey'"), error.getMessage());
        assertEquals(0, ring.size());
        assertEquals(0, failures());
    }

    @Test
    void shouldAcceptALogonExactlyWhenTheSchemaDoes()
    {
        final String user = "{\"type\":\"logon\",\"username\":\"";
        final String key = "{\"type\":\"logon\",\"timestamp\":1,\"apiKey\":\"";
        final String rest = "\",\"nonce\":\"" + "n".repeat(16) + "\",\"signature\":\"" + "ab".repeat(32) + "\"}";
        final List<Object[]> cases = List.of(
            new Object[] { user + "a".repeat(64) + "\",\"password\":\"x\"}", true },
            new Object[] { user + "a".repeat(65) + "\",\"password\":\"x\"}", false },
            new Object[] { user + "\",\"password\":\"x\"}", false },
            new Object[] { user + "\u00e9".repeat(64) + "\",\"password\":\"x\"}", true },
            new Object[] { user + "alice\",\"password\":\"" + "p".repeat(1024) + "\"}", true },
            new Object[] { user + "alice\",\"password\":\"" + "p".repeat(1025) + "\"}", false },
            new Object[] { user + "alice\",\"password\":\"\"}", false },
            new Object[] { user + "alice\",\"password\":\"x\",\"heartbeatMs\":2147483647}", true },
            new Object[] { user + "alice\",\"password\":\"x\",\"heartbeatMs\":2147483648}", false },
            new Object[] { user + "alice\",\"password\":\"x\",\"session\":\"" + "s".repeat(32) + "\"}", true },
            new Object[] { user + "alice\",\"password\":\"x\",\"session\":\"" + "s".repeat(33) + "\"}", false },
            new Object[] { key + "AK-12345" + rest, true },
            new Object[] { key + "AK-1234" + rest, false },
            new Object[] { key + "K".repeat(64) + rest, true },
            new Object[] { key + "K".repeat(65) + rest, false },
            new Object[] { key + "AK 12345" + rest, false },
            new Object[] { key + "AK-12345" + rest.replace("ab".repeat(32), "AB".repeat(32)), true },
            new Object[] { key + "AK-12345" + rest.replace("ab".repeat(32), "ab".repeat(31) + "a"), false },
            new Object[] { key + "AK-12345" + rest.replace("ab".repeat(32), "ab".repeat(31) + "zz"), false },
            new Object[] { key + "AK-12345" + rest.replace("n".repeat(16), "n".repeat(15)), false },
            new Object[] { key + "AK-12345" + rest.replace("n".repeat(16), "n".repeat(64)), true },
            new Object[] { key + "AK-12345" + rest.replace("n".repeat(16), "n".repeat(65)), false });
        final List<String> disagreements = new ArrayList<>();
        for (final Object[] example : cases)
        {
            final String message = (String)example[0];
            final boolean expected = (Boolean)example[1];
            final boolean bySchema = SCHEMA.validate(message, InputFormat.JSON).isEmpty();
            boolean byGateway = true;
            try
            {
                logon(message);
            }
            catch (final RequestException ex)
            {
                byGateway = false;
            }
            if (bySchema != expected || byGateway != expected)
            {
                disagreements.add("expected " + expected + ", schema " + bySchema + ", gateway " + byGateway + ": " +
                    (message.length() > 160 ? message.substring(0, 160) + "..." : message));
            }
        }
        assertEquals(List.of(), disagreements);
    }

    @Test
    void shouldAcceptAnOrderPriceExactlyWhenTheSchemaDoes() throws RequestException
    {
        final List<Object[]> cases = List.of(
            new Object[] { "101.25", true },
            new Object[] { "-0.5", true },
            new Object[] { "123456789012345678", true },
            new Object[] { "1234567890123456789", false },
            new Object[] { "123456789.123456789", true },
            new Object[] { "1234567890.123456789", false },
            new Object[] { "0.12345678901234567", true },
            new Object[] { "0.123456789012345678", false },
            new Object[] { "1.", false },
            new Object[] { ".5", false },
            new Object[] { "1e5", false },
            new Object[] { "", false });
        final WsConnection connection = connection();
        final List<String> disagreements = new ArrayList<>();
        for (final Object[] example : cases)
        {
            final String price = (String)example[0];
            final boolean expected = (Boolean)example[1];
            for (final String message : List.of(
                "{\"type\":\"newOrder\",\"clOrdId\":\"o-1\",\"account\":101,\"instrument\":\"ACME\",\"side\":" +
                    "\"buy\",\"price\":\"" + price + "\",\"quantity\":10}",
                "{\"type\":\"replaceOrder\",\"clOrdId\":\"o-1\",\"price\":\"" + price + "\",\"quantity\":10}"))
            {
                final boolean bySchema = SCHEMA.validate(message, InputFormat.JSON).isEmpty();
                boolean byGateway = true;
                try
                {
                    assertTrue(mapper.map(connection, protocol.parse(message), 1L));
                }
                catch (final RequestException ex)
                {
                    byGateway = false;
                }
                if (bySchema != expected || byGateway != expected)
                {
                    disagreements.add("expected " + expected + ", schema " + bySchema + ", gateway " + byGateway +
                        ": " + message);
                }
                commands();
            }
        }
        assertEquals(List.of(), disagreements);
    }

    @Test
    void shouldHandTheCoreASessionNameOfTheLongestLengthAllowedWhole() throws RequestException
    {
        final String name = "session.name:of_32-characters-xx";
        assertEquals(CommandDescriptor.SESSION_NAME_WIDTH, name.length());
        assertTrue(logon(password("alice", "alice-pw", ",\"session\":\"" + name + "\"")).submitted());
        final List<String> names = new ArrayList<>();
        ring.read((type, buffer, offset, length) ->
        {
            assertEquals(CommandDescriptor.LOGON, type);
            names.add(CommandDescriptor.getAscii(buffer, offset + CommandDescriptor.SESSION_NAME_OFFSET,
                CommandDescriptor.SESSION_NAME_WIDTH, new StringBuilder()).toString());
        });
        assertEquals(List.of(name), names);
    }

    private WsRequestMapper.LogonResult logon(final String message) throws RequestException
    {
        return mapper.logon(connection(), protocol.parse(message), 1L);
    }

    /**
     * A connection from an address of its own: the address's failure count never throttles these tests.
     */
    private WsConnection connection()
    {
        final WsConnection connection = new WsConnection(null, null, "192.0.2." + ++nextAddress, 40_000);
        connection.connection(connections.get(0));
        return connection;
    }

    private String signedKeyLogon(final String nonce)
    {
        final long timestampMs = clock.time();
        return "{\"type\":\"logon\",\"apiKey\":\"" + BOB_KEY + "\",\"timestamp\":" + timestampMs + ",\"nonce\":\"" +
            nonce + "\",\"signature\":\"" +
            HexFormat.of().formatHex(Authenticator.sign(BOB_SECRET, BOB_KEY, timestampMs, nonce)) + "\"";
    }

    private static String password(final String user, final String password, final String more)
    {
        return "{\"type\":\"logon\",\"username\":\"" + user + "\",\"password\":\"" + password + "\"" + more + "}";
    }

    private long failures()
    {
        long failures = 0;
        for (final GatewayCounterDescriptor descriptor : GatewayCounterDescriptor.values())
        {
            if (descriptor.name().startsWith("LOGON_FAILED_"))
            {
                failures += counters.get(descriptor).get();
            }
        }
        return failures;
    }

    /**
     * Take what the mapper handed the core.
     */
    private List<Integer> commands()
    {
        final List<Integer> types = new ArrayList<>();
        ring.read((type, buffer, offset, length) -> types.add(type));
        return types;
    }

    private static Schema loadSchema()
    {
        try (InputStream schema = WsRequestMapperTest.class.getResourceAsStream("/gateway-protocol.schema.json"))
        {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(schema);
        }
        catch (final IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
