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

/**
 * One parsed, type-checked client message: its type, its request id, and its fields by name with their JSON values
 * (String, Long, Boolean, or a nested map for a logon's {@code resume}).
 *
 * @param type      the message type.
 * @param requestId the client's {@code reqId}, or null.
 * @param values    the fields.
 */
record JsonRequest(String type, String requestId, Map<String, Object> values)
{
    boolean has(final String name)
    {
        return values.containsKey(name);
    }

    String string(final String name)
    {
        return (String)values.get(name);
    }

    long integer(final String name)
    {
        return (Long)values.get(name);
    }

    boolean flag(final String name, final boolean defaultValue)
    {
        final Object value = values.get(name);
        return null == value ? defaultValue : (Boolean)value;
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> object(final String name)
    {
        return (Map<String, Object>)values.get(name);
    }
}
