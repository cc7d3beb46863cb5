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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command of {@code ./warpbus client} becomes a request the protocol's JSON Schema accepts, with the fields the
 * command names; a bad command is refused with what is wrong, before anything is sent.
 */
@Timeout(30)
class ClientCommandsTest
{
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Schema SCHEMA = schema();

    @ParameterizedTest
    @ValueSource(strings = {
        "buy ACME 10 @ 100.25", "sell ACME 10 @ 101 ioc", "sell BETA 5 @ 49.99 fok", "buy BETA 1 @ 50 post-only",
        "buy ACME 20", "sell ACME 20 fok", "buy ACME 10 @ 100 account 102 id my-order-1", "cancel my-order-1",
        "amend my-order-1 100.30 20", "orders", "instruments", "subscribe ACME", "unsubscribe BETA", "logout" })
    void shouldProduceRequestsTheSchemaAccepts(final String command)
    {
        final String json = ClientCommands.toJson(command, 101, new AtomicInteger());
        final List<Error> errors = SCHEMA.validate(json, InputFormat.JSON);
        assertTrue(errors.isEmpty(), command + " -> " + json + ": " + errors);
    }

    @Test
    void shouldCarryTheFieldsTheCommandNames()
    {
        final JsonNode limit = JSON.readTree(ClientCommands.toJson("sell ACME 30 @ 100.05 ioc account 102 id x-1", 101,
            new AtomicInteger()));
        assertEquals("newOrder", limit.path("type").asString());
        assertEquals("x-1", limit.path("clOrdId").asString());
        assertEquals(102, limit.path("account").asLong());
        assertEquals("sell", limit.path("side").asString());
        assertEquals(30, limit.path("quantity").asLong());
        assertEquals("100.05", limit.path("price").asString(), "the price is sent as typed, a decimal string");
        assertEquals("ioc", limit.path("timeInForce").asString());

        final JsonNode market = JSON.readTree(ClientCommands.toJson("buy ACME 10", 101, new AtomicInteger()));
        assertEquals("market", market.path("orderType").asString());
        assertEquals("ioc", market.path("timeInForce").asString());
        assertEquals(101, market.path("account").asLong(), "the client's default account");
        assertFalse(market.has("price"));

        final AtomicInteger counter = new AtomicInteger();
        final String first = JSON.readTree(ClientCommands.toJson("buy ACME 10", 101, counter)).path("clOrdId")
            .asString();
        final String second = JSON.readTree(ClientCommands.toJson("buy ACME 10", 101, counter)).path("clOrdId")
            .asString();
        assertFalse(first.equals(second), "generated ids differ: " + first);

        final JsonNode amend = JSON.readTree(ClientCommands.toJson("amend x-1 100.30 20", 101, counter));
        assertEquals("replaceOrder", amend.path("type").asString());
        assertEquals("100.30", amend.path("price").asString());
        assertEquals(20, amend.path("quantity").asLong());
    }

    @Test
    void shouldRefuseBadCommandsNamingTheProblem()
    {
        assertMessage("unknown command 'purchase'", "purchase ACME 10");
        assertMessage("usage: buy SYMBOL QUANTITY", "buy ACME");
        assertMessage("'ten' is not a whole number", "buy ACME ten @ 100");
        assertMessage("unexpected 'now' in the order", "buy ACME 10 @ 100 now");
        assertMessage("usage: ... @ PRICE", "buy ACME 10 @");
        assertMessage("usage: cancel ID", "cancel");
        assertMessage("usage: amend ID PRICE QUANTITY", "amend x-1 100");
        final IllegalArgumentException noAccount = assertThrows(IllegalArgumentException.class,
            () -> ClientCommands.toJson("buy ACME 10 @ 100", -1, new AtomicInteger()));
        assertTrue(noAccount.getMessage().contains("no account"), noAccount.getMessage());
    }

    @Test
    void shouldQuoteWhatTheUserTypesSoItCannotBreakTheJson()
    {
        final String json = ClientCommands.toJson("cancel a\"b\\c", 101, new AtomicInteger());
        assertEquals("a\"b\\c", JSON.readTree(json).path("clOrdId").asString(), json);
        assertEquals("\"tab\\u0009\"", GatewayClient.quote("tab\t"));
    }

    @Test
    void shouldDescribeReportsOnOneLine()
    {
        final JsonNode fill = JSON.readTree("{\"type\":\"executionReport\",\"seq\":7," +
            "\"execType\":\"partiallyFilled\"," +
            "\"clOrdId\":\"x-1\",\"side\":\"buy\",\"quantity\":30,\"instrument\":\"ACME\",\"price\":\"100.05\"," +
            "\"cumQuantity\":10,\"lastQuantity\":10,\"lastPrice\":\"100.00\",\"leavesQuantity\":20," +
            "\"orderStatus\":\"partiallyFilled\"}");
        assertEquals("#7 partiallyFilled x-1: buy 30 ACME @ 100.05, filled 10 (last 10 @ 100.00), leaves 20, " +
            "partiallyFilled", ClientCommands.describe(fill));
        final JsonNode reject = JSON.readTree("{\"type\":\"executionReport\",\"seq\":8,\"execType\":\"rejected\"," +
            "\"clOrdId\":\"x-2\",\"side\":\"sell\",\"quantity\":5,\"instrument\":\"ACME\",\"price\":\"1.00\"," +
            "\"cumQuantity\":0,\"leavesQuantity\":0,\"orderStatus\":\"rejected\",\"reason\":504," +
            "\"text\":\"quantity outside limits\"}");
        assertTrue(ClientCommands.describe(reject).endsWith("rejected, reason 504 quantity outside limits"),
            ClientCommands.describe(reject));
    }

    private static void assertMessage(final String expected, final String command)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> ClientCommands.toJson(command, 101, new AtomicInteger()), command);
        assertTrue(ex.getMessage().contains(expected), command + ": " + ex.getMessage());
    }

    private static Schema schema()
    {
        try (InputStream schema = ClientCommandsTest.class.getResourceAsStream("/gateway-protocol.schema.json"))
        {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(schema);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
