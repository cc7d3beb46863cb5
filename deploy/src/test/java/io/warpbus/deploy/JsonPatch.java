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
package io.warpbus.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON Patch (RFC 6902) as kustomize applies it: add, remove, replace and test, on JSON Pointers (RFC 6901).
 * remove, replace and test fail on a path that does not exist, and add on a parent that does not, naming the
 * operation; a failed test stops the patch, which is what a test is for.
 */
final class JsonPatch
{
    private static final Set<String> FIELDS = Set.of("op", "path", "value");

    private JsonPatch()
    {
    }

    static void apply(final ObjectNode document, final ArrayNode operations, final String where)
    {
        int index = 0;
        for (final JsonNode operation : operations)
        {
            final String at = where + ", operation " + index++ + " " + operation;
            for (final String field : operation.propertyNames())
            {
                if (!FIELDS.contains(field))
                {
                    throw new IllegalArgumentException(at + ": field " + field + " is not rendered here");
                }
            }
            final String op = operation.path("op").asString();
            final List<String> tokens = pointer(operation.path("path").asString(), at);
            if (tokens.isEmpty())
            {
                throw new IllegalArgumentException(at + ": the whole document cannot be patched here");
            }
            final JsonNode parent = resolve(document, tokens.subList(0, tokens.size() - 1), at);
            final String last = tokens.get(tokens.size() - 1);
            final boolean hasValue = operation.has("value");
            switch (op)
            {
                case "add" -> add(parent, last, value(operation, hasValue, at), at);
                case "remove" -> remove(parent, last, at);
                case "replace" ->
                {
                    final JsonNode value = value(operation, hasValue, at);
                    remove(parent, last, at);
                    add(parent, last, value, at);
                }
                case "test" ->
                {
                    final JsonNode actual = child(parent, last, at);
                    if (!actual.equals(value(operation, hasValue, at)))
                    {
                        throw new IllegalArgumentException(at + ": test failed, the document has " + actual);
                    }
                }
                default -> throw new IllegalArgumentException(at + ": operation " + op + " is not rendered here " +
                    "(only add, remove, replace, test)");
            }
        }
    }

    private static JsonNode value(final JsonNode operation, final boolean hasValue, final String at)
    {
        if (!hasValue)
        {
            throw new IllegalArgumentException(at + ": no value");
        }
        return operation.get("value").deepCopy();
    }

    private static List<String> pointer(final String path, final String at)
    {
        if (!path.startsWith("/"))
        {
            throw new IllegalArgumentException(at + ": path " + path + " is not a JSON Pointer (starts with /)");
        }
        final List<String> tokens = new ArrayList<>();
        for (final String token : path.substring(1).split("/", -1))
        {
            tokens.add(token.replace("~1", "/").replace("~0", "~"));
        }
        return tokens;
    }

    private static JsonNode resolve(final JsonNode document, final List<String> tokens, final String at)
    {
        JsonNode node = document;
        for (final String token : tokens)
        {
            node = child(node, token, at);
        }
        return node;
    }

    private static JsonNode child(final JsonNode node, final String token, final String at)
    {
        final JsonNode child = node.isArray() ? node.get(index(node, token, false, at)) : node.get(token);
        if (null == child)
        {
            throw new IllegalArgumentException(at + ": " + token + " does not exist");
        }
        return child;
    }

    private static int index(final JsonNode array, final String token, final boolean append, final String at)
    {
        if (append && "-".equals(token))
        {
            return array.size();
        }
        if (!token.matches("0|[1-9][0-9]{0,8}"))
        {
            throw new IllegalArgumentException(at + ": " + token + " is not an index of a list");
        }
        final int index = Integer.parseInt(token);
        if (index > array.size() || (!append && index == array.size()))
        {
            throw new IllegalArgumentException(at + ": index " + index + " is past the list's end (" +
                array.size() + " elements)");
        }
        return index;
    }

    private static void add(final JsonNode parent, final String token, final JsonNode value, final String at)
    {
        if (parent instanceof ArrayNode array)
        {
            array.insert(index(array, token, true, at), value);
        }
        else if (parent instanceof ObjectNode object)
        {
            object.set(token, value);
        }
        else
        {
            throw new IllegalArgumentException(at + ": the parent of " + token + " is not a map or a list");
        }
    }

    private static void remove(final JsonNode parent, final String token, final String at)
    {
        child(parent, token, at);
        if (parent instanceof ArrayNode array)
        {
            array.remove(index(array, token, false, at));
        }
        else
        {
            ((ObjectNode)parent).remove(token);
        }
    }
}
