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

import java.util.List;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The protocol's JSON Schema holds what docs/gateway.md shows: each example is accepted, and messages that break a
 * rule of the protocol are refused.
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
                "\"100.25\",30,2]]}"))
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
            "{\"type\":\"heartbeat\",\"seq\":3,\"extra\":true}"))
        {
            assertFalse(TestClient.schema().validate(message, InputFormat.JSON).isEmpty(), message);
        }
    }
}
