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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The part of kustomize that ops/k8s uses, so that the base and every overlay are rendered and checked in CI
 * without kubectl: {@code resources} (files, and directories holding a kustomization), {@code patches} (strategic
 * merge, with {@code $patch: delete} and null to remove a field, and JSON 6902 with a target), {@code images} and
 * {@code namespace}. Anything else in a kustomization is refused by name, as is a patch whose target does not exist
 * or a JSON 6902 operation on a path that does not, so an overlay cannot silently render other than kustomize does.
 * Where kubectl is installed, KubernetesManifestsTest compares the two renderings.
 */
final class Kustomize
{
    private static final Set<String> FIELDS = Set.of("apiVersion", "kind", "namespace", "resources", "patches",
        "images");
    private static final Set<String> PATCH_FIELDS = Set.of("path", "target");
    private static final Set<String> TARGET_FIELDS = Set.of("group", "version", "kind", "name");
    private static final Set<String> IMAGE_FIELDS = Set.of("name", "newName", "newTag");
    /**
     * The lists the Kubernetes API merges by key (its patchMergeKey) among those our manifests have; every other
     * list is replaced whole by a strategic-merge patch, as the API server does.
     */
    private static final Map<String, String> MERGE_KEYS = Map.of(
        "containers", "name",
        "initContainers", "name",
        "env", "name",
        "volumes", "name",
        "volumeMounts", "mountPath",
        "imagePullSecrets", "name");

    private Kustomize()
    {
    }

    /**
     * Render the kustomization in {@code dir}: its resources with its patches, images and namespace applied.
     *
     * @throws IllegalArgumentException naming the file and what in it cannot be rendered.
     */
    static List<JsonNode> render(final Path dir)
    {
        final Path file = dir.resolve("kustomization.yaml");
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException(dir + ": no kustomization.yaml");
        }
        final JsonNode kustomization = DeployFiles.yaml(file);
        for (final String field : kustomization.propertyNames())
        {
            if (!FIELDS.contains(field))
            {
                throw new IllegalArgumentException(file + ": field " + field + " is not rendered here (only " +
                    new TreeSet<>(FIELDS) + ")");
            }
        }
        if (!"kustomize.config.k8s.io/v1beta1".equals(kustomization.path("apiVersion").asString()) ||
            !"Kustomization".equals(kustomization.path("kind").asString()))
        {
            throw new IllegalArgumentException(file + ": not a kustomize.config.k8s.io/v1beta1 Kustomization");
        }
        final List<ObjectNode> resources = new ArrayList<>();
        for (final JsonNode entry : kustomization.path("resources"))
        {
            final Path resource = dir.resolve(entry.asString()).normalize();
            final List<JsonNode> documents;
            if (Files.isDirectory(resource))
            {
                documents = render(resource);
            }
            else if (Files.isRegularFile(resource))
            {
                documents = DeployFiles.yamlDocuments(resource);
            }
            else
            {
                throw new IllegalArgumentException(file + ": resource " + entry.asString() + " does not exist");
            }
            for (final JsonNode document : documents)
            {
                if (null != find(resources, id(document)))
                {
                    throw new IllegalArgumentException(file + ": " + id(document) + " is listed twice");
                }
                resources.add((ObjectNode)document.deepCopy());
            }
        }
        for (final JsonNode patch : kustomization.path("patches"))
        {
            patch(file, dir, patch, resources);
        }
        for (final JsonNode image : kustomization.path("images"))
        {
            image(file, image, resources);
        }
        if (kustomization.has("namespace"))
        {
            final String namespace = kustomization.path("namespace").asString();
            resources.stream().filter((r) -> !"Namespace".equals(r.path("kind").asString()))
                .forEach((r) -> ((ObjectNode)r.path("metadata")).put("namespace", namespace));
        }
        return new ArrayList<>(resources);
    }

    private static void patch(final Path file, final Path dir, final JsonNode entry, final List<ObjectNode> resources)
    {
        requireOnly(file, "a patch", entry, PATCH_FIELDS);
        if (!entry.has("path"))
        {
            throw new IllegalArgumentException(file + ": a patch without a path (inline patches are not rendered)");
        }
        final Path path = dir.resolve(entry.path("path").asString());
        if (!Files.isRegularFile(path))
        {
            throw new IllegalArgumentException(file + ": patch " + entry.path("path").asString() + " does not exist");
        }
        // A list at the top is a JSON 6902 patch (read whole: a reader of documents would split the list).
        final JsonNode first = DeployFiles.YAML.readerFor(JsonNode.class)
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readValue(DeployFiles.read(path));
        if (null != first && first.isArray())
        {
            if (!entry.has("target"))
            {
                throw new IllegalArgumentException(path + ": a JSON 6902 patch needs a target in " + file);
            }
            final JsonNode target = entry.path("target");
            requireOnly(file, "a patch target", target, TARGET_FIELDS);
            final List<ObjectNode> matched = resources.stream().filter((r) -> matches(target, r)).toList();
            if (matched.isEmpty())
            {
                throw new IllegalArgumentException(file + ": the target of patch " + path.getFileName() + " (" +
                    target + ") matches no resource");
            }
            for (final ObjectNode resource : matched)
            {
                JsonPatch.apply(resource, (ArrayNode)first, path + " on " + id(resource));
            }
            return;
        }
        if (entry.has("target"))
        {
            throw new IllegalArgumentException(file + ": strategic-merge patch " + path.getFileName() +
                " names its target itself (a target is not rendered here)");
        }
        for (final JsonNode document : DeployFiles.yamlDocuments(path))
        {
            final String id = id(document);
            final ObjectNode resource = find(resources, id);
            if (null == resource)
            {
                throw new IllegalArgumentException(path + ": patches " + id + ", which no resource is");
            }
            if ("delete".equals(document.path("$patch").asString()))
            {
                resources.remove(resource);
            }
            else
            {
                merge(resource, (ObjectNode)document, path + ": " + id);
            }
        }
    }

    /**
     * A strategic-merge patch: maps merge, null removes a field, lists the API keys merge element by element (an
     * element with {@code $patch: delete} removes its match), other lists and values are replaced.
     */
    static void merge(final ObjectNode target, final ObjectNode patch, final String where)
    {
        for (final Map.Entry<String, JsonNode> property : patch.properties())
        {
            final String name = property.getKey();
            final JsonNode value = property.getValue();
            if (name.startsWith("$"))
            {
                throw new IllegalArgumentException(where + ": directive " + name + ": " + value + " is not rendered " +
                    "here (only $patch: delete of a resource or of a list element)");
            }
            final JsonNode existing = target.get(name);
            if (value.isNull())
            {
                target.remove(name);
            }
            else if (null != existing && existing.isObject() && value.isObject())
            {
                merge((ObjectNode)existing, (ObjectNode)value, where + "." + name);
            }
            else if (null != existing && existing.isArray() && value.isArray() && null != mergeKey(name, existing))
            {
                mergeList((ArrayNode)existing, (ArrayNode)value, mergeKey(name, existing), where + "." + name);
            }
            else
            {
                target.set(name, value.deepCopy());
            }
        }
    }

    private static String mergeKey(final String list, final JsonNode elements)
    {
        if ("ports".equals(list))
        {
            // A container's ports merge on containerPort, a Service's on port.
            return elements.isEmpty() || elements.get(0).has("containerPort") ? "containerPort" : "port";
        }
        return MERGE_KEYS.get(list);
    }

    private static void mergeList(final ArrayNode target, final ArrayNode patch, final String key, final String where)
    {
        // As kustomize orders the result: the patch's elements first, in its order, then the others in theirs.
        final List<JsonNode> first = new ArrayList<>();
        for (final JsonNode element : patch)
        {
            if (!element.isObject() || !element.has(key))
            {
                throw new IllegalArgumentException(where + ": an element without its merge key " + key + ": " +
                    element);
            }
            int index = -1;
            for (int i = 0; i < target.size(); i++)
            {
                if (element.get(key).equals(target.get(i).get(key)))
                {
                    index = i;
                }
            }
            final boolean delete = "delete".equals(element.path("$patch").asString());
            if (delete && index < 0)
            {
                throw new IllegalArgumentException(where + ": deletes " + key + " " + element.get(key) +
                    ", which the list does not have");
            }
            if (delete)
            {
                target.remove(index);
            }
            else if (index >= 0)
            {
                merge((ObjectNode)target.get(index), (ObjectNode)element, where + "[" + element.get(key) + "]");
                first.add(target.remove(index));
            }
            else
            {
                first.add(element.deepCopy());
            }
        }
        for (int i = first.size() - 1; i >= 0; i--)
        {
            target.insert(0, first.get(i));
        }
    }

    private static void image(final Path file, final JsonNode entry, final List<ObjectNode> resources)
    {
        requireOnly(file, "an image", entry, IMAGE_FIELDS);
        final String name = entry.path("name").asString();
        int changed = 0;
        for (final ObjectNode resource : resources)
        {
            final JsonNode pod = resource.path("spec").path("template").path("spec");
            for (final String list : List.of("initContainers", "containers"))
            {
                for (final JsonNode container : pod.path(list))
                {
                    final String image = container.path("image").asString();
                    final int colon = image.lastIndexOf(':');
                    final boolean tagged = colon > image.lastIndexOf('/');
                    final String repository = tagged ? image.substring(0, colon) : image;
                    if (name.equals(repository))
                    {
                        final String tag = entry.has("newTag") ? entry.path("newTag").asString() :
                            tagged ? image.substring(colon + 1) : null;
                        final String newName = entry.has("newName") ? entry.path("newName").asString() : repository;
                        ((ObjectNode)container).put("image", null == tag ? newName : newName + ":" + tag);
                        changed++;
                    }
                }
            }
        }
        if (0 == changed)
        {
            throw new IllegalArgumentException(file + ": image " + name + " is used by no container");
        }
    }

    private static boolean matches(final JsonNode target, final JsonNode resource)
    {
        final String apiVersion = resource.path("apiVersion").asString();
        final int slash = apiVersion.indexOf('/');
        final String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        final String version = apiVersion.substring(slash + 1);
        return (!target.has("group") || target.path("group").asString().equals(group)) &&
            (!target.has("version") || target.path("version").asString().equals(version)) &&
            (!target.has("kind") || target.path("kind").asString().equals(resource.path("kind").asString())) &&
            (!target.has("name") || target.path("name").asString().equals(
                resource.path("metadata").path("name").asString()));
    }

    private static void requireOnly(final Path file, final String what, final JsonNode node, final Set<String> fields)
    {
        if (!node.isObject())
        {
            throw new IllegalArgumentException(file + ": " + what + " is not a map: " + node);
        }
        for (final String field : node.propertyNames())
        {
            if (!fields.contains(field))
            {
                throw new IllegalArgumentException(file + ": " + what + " has field " + field +
                    ", which is not rendered here (only " + new TreeSet<>(fields) + ")");
            }
        }
    }

    static String id(final JsonNode resource)
    {
        return resource.path("apiVersion").asString() + "/" + resource.path("kind").asString() + "/" +
            resource.path("metadata").path("name").asString();
    }

    private static ObjectNode find(final List<ObjectNode> resources, final String id)
    {
        return resources.stream().filter((r) -> id.equals(id(r))).findFirst().orElse(null);
    }
}
