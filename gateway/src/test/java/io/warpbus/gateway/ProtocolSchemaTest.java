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
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import io.warpbus.gateway.session.ProtocolError;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The protocol's JSON Schema holds what docs/gateway.md shows: each example is accepted, messages that break a rule
 * of the protocol are refused, and its error codes are exactly those of {@link ProtocolError}.
 */
class ProtocolSchemaTest
{
    @Test
    void shouldAcceptTheDocumentedMessages()
    {
        for (final String message : List.of(
            "{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"secret\",\"heartbeatMs\":5000}",
            "{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"x\",\"resume\":{\"token\":" +
                "\"0123456789abcdef0123456789abcdef\",\"fromSeq\":17}}",
            "{\"type\":\"error\",\"seq\":0,\"code\":\"missingField\",\"text\":\"missing field 'type'\"}",
            "{\"type\":\"logonRejected\",\"seq\":0,\"reason\":\"unknown user or wrong password\"}",
            "{\"type\":\"gapFill\",\"seq\":4,\"newSeq\":9}",
            "{\"type\":\"bookUpdate\",\"seq\":12,\"instrument\":\"ACME\",\"mdSeq\":40,\"changes\":[[\"buy\"," +
                "\"100.25\",30,2]]}",
            "{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"x\",\"session\":\"" + "s".repeat(32) + "\"}",
            "{\"type\":\"replaceOrder\",\"clOrdId\":\"a\",\"price\":\"123456789.123456789\",\"quantity\":1}"))
        {
            final List<Error> errors = TestClient.schema().validate(message, InputFormat.JSON);
            assertEquals(List.of(), errors, message);
        }
    }

    @Test
    void shouldRefuseMessagesThatBreakTheProtocol()
    {
        for (final String message : List.of(
            "{\"type\":\"logon\",\"username\":\"alice\"}",
            "{\"type\":\"newOrder\",\"clOrdId\":\"a\",\"account\":1,\"instrument\":\"ACME\",\"side\":\"up\"," +
                "\"quantity\":1}",
            "{\"type\":\"newOrder\",\"clOrdId\":\"a\",\"account\":1,\"instrument\":\"ACME\",\"side\":\"buy\"," +
                "\"quantity\":1,\"price\":101.5}",
            "{\"type\":\"error\",\"code\":\"missingField\",\"text\":\"no seq\"}",
            "{\"type\":\"heartbeat\",\"seq\":3,\"extra\":true}",
            "{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"x\",\"session\":\"" + "s".repeat(33) + "\"}",
            "{\"type\":\"logon\",\"username\":\"alice\",\"password\":\"x\",\"heartbeatMs\":2147483648}",
            "{\"type\":\"replaceOrder\",\"clOrdId\":\"a\",\"price\":\"1234567890.123456789\",\"quantity\":1}",
            "{\"type\":\"error\",\"seq\":3,\"code\":\"busy\",\"text\":\"never sent\"}",
            "{\"type\":\"error\",\"seq\":3,\"code\":\"rateLimited\",\"text\":\"never sent\"}"))
        {
            assertFalse(TestClient.schema().validate(message, InputFormat.JSON).isEmpty(), message);
        }
    }

    @Test
    void shouldListExactlyTheErrorCodesTheGatewaySends() throws IOException
    {
        final JsonNode schema;
        try (InputStream in = ProtocolSchemaTest.class.getResourceAsStream("/gateway-protocol.schema.json"))
        {
            schema = JsonMapper.builder().build().readTree(in);
        }
        final Set<String> inSchema = new TreeSet<>();
        schema.path("$defs").path("error").path("properties").path("code").path("enum")
            .forEach((code) -> inSchema.add(code.asString()));
        final Set<String> inCode = new TreeSet<>();
        for (final ProtocolError error : ProtocolError.values())
        {
            inCode.add(error.label());
            assertEquals(error, ProtocolError.get(error.code()));
        }
        assertEquals(inCode, inSchema, "the schema's error codes are the gateway's");
        assertEquals(new TreeSet<>(Set.of("malformed", "unknownType", "missingField", "unknownField", "wrongType",
            "invalidValue", "tooLarge", "notLoggedOn", "alreadyLoggedOn", "unknownInstrument", "subscriptionState")),
            inCode, "only codes an error message is sent with: rate limits and overload are answered otherwise");
    }
}
