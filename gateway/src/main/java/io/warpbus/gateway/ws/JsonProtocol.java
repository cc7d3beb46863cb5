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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.warpbus.gateway.session.ProtocolError;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * The gateway's JSON protocol, inbound: parses one WebSocket text message into a {@link JsonRequest} and checks it
 * against the message type's fields (docs/gateway.md, and the JSON Schema {@code gateway-protocol.schema.json} the
 * tests hold both directions to). A message is one JSON object with a string {@code type}; every field it may have is
 * listed per type, with its JSON type; anything else is refused with an error naming the field.
 * <p>
 * Values stay strings where precision matters (prices are decimal strings); integers must fit a signed 64-bit
 * value; nesting is limited to the one object a logon's {@code resume} is.
 */
final class JsonProtocol
{
    static final int MAX_ID_LENGTH = 36;
    static final Pattern ID = Pattern.compile("[A-Za-z0-9._:\\-]{1," + MAX_ID_LENGTH + "}");

    /**
     * JSON types of fields.
     */
    enum Kind
    {
        STRING("a string"),
        INTEGER("an integer"),
        BOOLEAN("true or false"),
        OBJECT("an object");

        private final String description;

        Kind(final String description)
        {
            this.description = description;
        }

        String description()
        {
            return description;
        }
    }

    /**
     * One field of a message type.
     *
     * @param name     the field name.
     * @param kind     its JSON type.
     * @param required must it be present?
     */
    record Field(String name, Kind kind, boolean required)
    {
    }

    private static final Map<String, Map<String, Field>> SPECS = specs();
    private static final Map<String, Field> RESUME_FIELDS = Map.of(
        "token", new Field("token", Kind.STRING, true), "fromSeq", new Field("fromSeq", Kind.INTEGER, true));

    private final JsonFactory factory = JsonFactory.builder()
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(3).maxNumberLength(20)
            .maxStringLength(4096).maxNameLength(64).build())
        .build();

    /**
     * The message types clients may send.
     *
     * @return the type names.
     */
    static Set<String> types()
    {
        return SPECS.keySet();
    }

    /**
     * The fields of a message type.
     *
     * @param type a type name.
     * @return its fields, or null when unknown.
     */
    static Map<String, Field> fieldsOf(final String type)
    {
        return SPECS.get(type);
    }

    /**
     * Parse and check one message.
     *
     * @param text the message.
     * @return the request.
     * @throws RequestException naming what is wrong.
     */
    JsonRequest parse(final String text) throws RequestException
    {
        final Map<String, Object> values;
        try (JsonParser parser = factory.createParser(ObjectReadContext.empty(), text))
        {
            if (JsonToken.START_OBJECT != parser.nextToken())
            {
                throw new RequestException(ProtocolError.MALFORMED, "a message must be a JSON object", null);
            }
            values = readObject(parser, 1);
            if (null != parser.nextToken())
            {
                throw new RequestException(ProtocolError.MALFORMED, "unexpected content after the JSON object",
                    stringOrNull(values.get("reqId")));
            }
        }
        catch (final JacksonException ex)
        {
            throw new RequestException(ProtocolError.MALFORMED, "malformed JSON: " + summary(ex), null);
        }
        final String requestId = stringOrNull(values.get("reqId"));
        final Object type = values.get("type");
        if (!(type instanceof String))
        {
            throw new RequestException(null == type ? ProtocolError.MISSING_FIELD : ProtocolError.WRONG_TYPE,
                null == type ? "missing field 'type'" : "field 'type' must be a string", validId(requestId));
        }
        final Map<String, Field> spec = SPECS.get(type);
        if (null == spec)
        {
            throw new RequestException(ProtocolError.UNKNOWN_TYPE, "unknown message type '" + printable(type) +
                "'; known: " + SPECS.keySet(), validId(requestId));
        }
        check(values, spec, validId(requestId), (String)type);
        if (null != requestId && null == validId(requestId))
        {
            throw new RequestException(ProtocolError.INVALID_VALUE, "field 'reqId' must be 1 to " + MAX_ID_LENGTH +
                " characters of A-Z a-z 0-9 . _ : -", null);
        }
        final Object resume = values.get("resume");
        if (resume instanceof Map)
        {
            @SuppressWarnings("unchecked")
            final Map<String, Object> resumeValues = (Map<String, Object>)resume;
            check(resumeValues, RESUME_FIELDS, requestId, "logon.resume");
        }
        return new JsonRequest((String)type, requestId, Collections.unmodifiableMap(values));
    }

    private static void check(final Map<String, Object> values, final Map<String, Field> spec,
        final String requestId, final String type) throws RequestException
    {
        for (final Map.Entry<String, Object> entry : values.entrySet())
        {
            final Field field = spec.get(entry.getKey());
            if (null == field)
            {
                throw new RequestException(ProtocolError.UNKNOWN_FIELD, "unknown field '" + printable(entry.getKey()) +
                    "' in " + type + "; its fields: " + spec.keySet(), requestId);
            }
            if (!matches(field.kind(), entry.getValue()))
            {
                throw new RequestException(ProtocolError.WRONG_TYPE, "field '" + field.name() + "' of " + type +
                    " must be " + field.kind().description(), requestId);
            }
        }
        for (final Field field : spec.values())
        {
            if (field.required() && !values.containsKey(field.name()))
            {
                throw new RequestException(ProtocolError.MISSING_FIELD, "missing field '" + field.name() + "' in " +
                    type, requestId);
            }
        }
    }

    private static boolean matches(final Kind kind, final Object value)
    {
        switch (kind)
        {
            case STRING:
                return value instanceof String;
            case INTEGER:
                return value instanceof Long;
            case BOOLEAN:
                return value instanceof Boolean;
            case OBJECT:
                return value instanceof Map;
            default:
                return false;
        }
    }

    private static Map<String, Object> readObject(final JsonParser parser, final int depth) throws RequestException
    {
        final Map<String, Object> values = new LinkedHashMap<>();
        JsonToken token;
        while (JsonToken.END_OBJECT != (token = parser.nextToken()))
        {
            if (JsonToken.PROPERTY_NAME != token)
            {
                throw new RequestException(ProtocolError.MALFORMED, "malformed JSON object", null);
            }
            final String name = parser.currentName();
            values.put(name, readValue(parser, name, depth));
        }
        return values;
    }

    private static Object readValue(final JsonParser parser, final String name, final int depth)
        throws RequestException
    {
        final JsonToken token = parser.nextToken();
        if (null == token)
        {
            throw new RequestException(ProtocolError.MALFORMED, "malformed JSON: ends inside the object", null);
        }
        switch (token)
        {
            case VALUE_STRING:
                return parser.getString();
            case VALUE_NUMBER_INT:
                if (JsonParser.NumberType.INT != parser.getNumberType() &&
                    JsonParser.NumberType.LONG != parser.getNumberType())
                {
                    throw new RequestException(ProtocolError.INVALID_VALUE, "field '" + printable(name) +
                        "' is out of range: integers must fit 64 bits", null);
                }
                return parser.getLongValue();
            case VALUE_NUMBER_FLOAT:
                return new FloatValue(parser.getString());
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return NullValue.NULL;
            case START_OBJECT:
                if (depth > 1)
                {
                    throw new RequestException(ProtocolError.MALFORMED, "objects nest too deep at '" + printable(name) +
                        "'", null);
                }
                return readObject(parser, depth + 1);
            case START_ARRAY:
                throw new RequestException(ProtocolError.WRONG_TYPE, "field '" + printable(name) +
                    "' is an array: no field of the protocol is", null);
            default:
                throw new RequestException(ProtocolError.MALFORMED, "unexpected JSON token " + token, null);
        }
    }

    private static String summary(final JacksonException ex)
    {
        final String message = ex.getOriginalMessage();
        final String text = null == message ? ex.getClass().getSimpleName() : message;
        final String firstLine = text.lines().findFirst().orElse(text);
        return printable(firstLine.length() > 160 ? firstLine.substring(0, 160) : firstLine);
    }

    static String printable(final Object value)
    {
        final String text = String.valueOf(value);
        final StringBuilder builder = new StringBuilder(Math.min(64, text.length()));
        for (int i = 0; i < text.length() && builder.length() < 64; i++)
        {
            final char c = text.charAt(i);
            builder.append(c >= 0x20 && c < 0x7F ? c : '?');
        }
        return builder.toString();
    }

    /**
     * Text for a JSON string value written by hand: printable ASCII only, quotes and backslashes escaped, at most
     * 256 characters.
     *
     * @param value the text.
     * @return the escaped text, without the surrounding quotes.
     */
    static String jsonText(final String value)
    {
        final String text = null == value ? "" : value;
        final StringBuilder builder = new StringBuilder(Math.min(256, text.length()) + 8);
        for (int i = 0, n = Math.min(256, text.length()); i < n; i++)
        {
            final char c = text.charAt(i);
            if ('"' == c || '\\' == c)
            {
                builder.append('\\');
            }
            builder.append(c >= 0x20 && c < 0x7F ? c : '?');
        }
        return builder.toString();
    }

    private static String stringOrNull(final Object value)
    {
        return value instanceof String ? (String)value : null;
    }

    private static String validId(final String id)
    {
        return null != id && ID.matcher(id).matches() ? id : null;
    }

    private static Map<String, Field> fields(final Field... fields)
    {
        final Map<String, Field> map = new LinkedHashMap<>();
        map.put("type", new Field("type", Kind.STRING, true));
        map.put("reqId", new Field("reqId", Kind.STRING, false));
        for (final Field field : fields)
        {
            map.put(field.name(), field);
        }
        return Collections.unmodifiableMap(map);
    }

    private static Map<String, Map<String, Field>> specs()
    {
        final Map<String, Map<String, Field>> specs = new LinkedHashMap<>();
        specs.put("logon", fields(
            new Field("username", Kind.STRING, false),
            new Field("password", Kind.STRING, false),
            new Field("apiKey", Kind.STRING, false),
            new Field("timestamp", Kind.INTEGER, false),
            new Field("nonce", Kind.STRING, false),
            new Field("signature", Kind.STRING, false),
            new Field("heartbeatMs", Kind.INTEGER, false),
            new Field("session", Kind.STRING, false),
            new Field("resume", Kind.OBJECT, false),
            new Field("dropCopy", Kind.BOOLEAN, false)));
        specs.put("logout", fields());
        specs.put("heartbeat", fields(new Field("testId", Kind.STRING, false)));
        specs.put("testRequest", fields(new Field("testId", Kind.STRING, true)));
        specs.put("subscribe", fields(new Field("instrument", Kind.STRING, true)));
        specs.put("unsubscribe", fields(new Field("instrument", Kind.STRING, true)));
        specs.put("newOrder", fields(
            new Field("clOrdId", Kind.STRING, true),
            new Field("account", Kind.INTEGER, true),
            new Field("instrument", Kind.STRING, true),
            new Field("side", Kind.STRING, true),
            new Field("orderType", Kind.STRING, false),
            new Field("timeInForce", Kind.STRING, false),
            new Field("price", Kind.STRING, false),
            new Field("quantity", Kind.INTEGER, true),
            new Field("postOnly", Kind.BOOLEAN, false)));
        specs.put("cancelOrder", fields(new Field("clOrdId", Kind.STRING, true)));
        specs.put("replaceOrder", fields(
            new Field("clOrdId", Kind.STRING, true),
            new Field("price", Kind.STRING, true),
            new Field("quantity", Kind.INTEGER, true)));
        specs.put("openOrders", fields());
        specs.put("instruments", fields());
        return Collections.unmodifiableMap(specs);
    }

    /**
     * A JSON number with a fraction or exponent: no field of the protocol takes one.
     *
     * @param text as written.
     */
    record FloatValue(String text)
    {
    }

    /**
     * JSON null: no field of the protocol takes it.
     */
    enum NullValue
    {
        NULL
    }
}
