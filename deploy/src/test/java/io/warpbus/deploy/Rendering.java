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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * One rendering of ops/k8s (the base, or an overlay) read into the Kubernetes model, and the look-ups the checks
 * make on it.
 */
record Rendering(String name, List<HasMetadata> resources)
{
    private static final Pattern VARIABLE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    <T extends HasMetadata> List<T> all(final Class<T> type)
    {
        return resources.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> Set<String> names(final Class<T> type)
    {
        final Set<String> names = new TreeSet<>();
        all(type).forEach((r) -> names.add(r.getMetadata().getName()));
        return names;
    }

    <T extends HasMetadata> T find(final Class<T> type, final String resource)
    {
        return all(type).stream().filter((r) -> resource.equals(r.getMetadata().getName())).findFirst()
            .orElse(null);
    }

    <T extends HasMetadata> T one(final Class<T> type, final String resource)
    {
        final T found = find(type, resource);
        assertNotNull(found, name + ": no " + type.getSimpleName() + " " + resource);
        return found;
    }

    /**
     * The pod template of every Deployment and StatefulSet, by workload name.
     */
    Map<String, PodTemplateSpec> templates()
    {
        final Map<String, PodTemplateSpec> templates = new HashMap<>();
        all(Deployment.class).forEach((d) -> templates.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        all(StatefulSet.class).forEach((s) -> templates.put(s.getMetadata().getName(), s.getSpec().getTemplate()));
        return templates;
    }

    Map<String, String> selectorOf(final String workload)
    {
        final Deployment deployment = find(Deployment.class, workload);
        return null != deployment ? deployment.getSpec().getSelector().getMatchLabels() :
            one(StatefulSet.class, workload).getSpec().getSelector().getMatchLabels();
    }

    /**
     * A container's environment as Kubernetes builds it: its ConfigMaps (envFrom) overridden by its own env.
     */
    Map<String, String> environment(final Container container)
    {
        final Map<String, String> environment = new HashMap<>();
        for (final EnvFromSource from : container.getEnvFrom())
        {
            if (null != from.getConfigMapRef())
            {
                final ConfigMap map = find(ConfigMap.class, from.getConfigMapRef().getName());
                if (null != map && null != map.getData())
                {
                    environment.putAll(map.getData());
                }
            }
        }
        for (final EnvVar variable : container.getEnv())
        {
            environment.put(variable.getName(), null == variable.getValue() ? "" : variable.getValue());
        }
        return environment;
    }

    /**
     * A container's arguments with its $(VAR) references replaced as the kubelet does; a reference to a variable
     * the container does not have stays as written (and is reported by {@link #undefinedVariables()}).
     */
    List<String> arguments(final Container container)
    {
        final Map<String, String> environment = environment(container);
        final List<String> arguments = new ArrayList<>();
        for (final String argument : container.getArgs())
        {
            final Matcher matcher = VARIABLE.matcher(argument);
            final StringBuilder resolved = new StringBuilder();
            while (matcher.find())
            {
                final String value = environment.get(matcher.group(1));
                matcher.appendReplacement(resolved, Matcher.quoteReplacement(null == value ? matcher.group() : value));
            }
            matcher.appendTail(resolved);
            arguments.add(resolved.toString());
        }
        return arguments;
    }

    /**
     * Every $(VAR) in a command or its arguments that the container's environment does not define: Kubernetes
     * passes it on literally, so the program would get "$(ROUTE_2)" for a route.
     */
    List<String> undefinedVariables()
    {
        final List<String> undefined = new ArrayList<>();
        for (final Map.Entry<String, PodTemplateSpec> entry : templates().entrySet())
        {
            final List<Container> containers = new ArrayList<>(entry.getValue().getSpec().getInitContainers());
            containers.addAll(entry.getValue().getSpec().getContainers());
            for (final Container container : containers)
            {
                final Map<String, String> environment = environment(container);
                final List<String> words = new ArrayList<>(container.getCommand());
                words.addAll(container.getArgs());
                for (final String word : words)
                {
                    final Matcher matcher = VARIABLE.matcher(word);
                    while (matcher.find())
                    {
                        if (!environment.containsKey(matcher.group(1)))
                        {
                            undefined.add(entry.getKey() + "/" + container.getName() + ": " + matcher.group());
                        }
                    }
                }
            }
        }
        return undefined;
    }

    @Override
    public String toString()
    {
        return name;
    }
}
