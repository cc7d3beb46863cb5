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

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.warpbus.testing.RequiredTools;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ops/k8s against the Kubernetes API: every document read into its typed model (fabric8's, generated from the
 * API's OpenAPI schema) with no field the schema does not have, then checked as a whole: selectors that select,
 * probes on ports the container has, Services on ports their pods name, references to ConfigMaps, Secrets, volumes
 * and claims that exist, whole-core CPU with requests equal to limits, non-root pods, named iWARP ports, and the
 * kustomization listing every file.
 */
@Timeout(60)
class KubernetesManifestsTest
{
    private static final Path DIR = Path.of("ops/k8s");
    private static final JsonMapper MAPPER = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
        "v1/Namespace", Namespace.class,
        "v1/ConfigMap", ConfigMap.class,
        "v1/Secret", Secret.class,
        "v1/Service", Service.class,
        "v1/PersistentVolumeClaim", PersistentVolumeClaim.class,
        "apps/v1/Deployment", Deployment.class,
        "apps/v1/StatefulSet", StatefulSet.class,
        "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class);

    private static final List<HasMetadata> RESOURCES = new ArrayList<>();

    @BeforeAll
    static void readEveryDocument()
    {
        RESOURCES.clear();
        for (final Path file : manifestFiles())
        {
            RESOURCES.addAll(read(file, DeployFiles.yamlDocuments(file)));
        }
    }

    @Test
    void shouldReadEveryDocumentIntoTheKubernetesModelWithNoUnknownField()
    {
        assertTrue(RESOURCES.size() >= 20, "documents: " + RESOURCES.size());
        for (final HasMetadata resource : RESOURCES)
        {
            assertNotNull(resource.getMetadata().getName(), resource.toString());
            assertTrue(resource.getMetadata().getName().matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?"),
                resource.getMetadata().getName());
        }
        // The check itself: a misspelt field is caught.
        final JsonNode misspelt = DeployFiles.YAML.readTree("apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n" +
            "spec:\n  selectr:\n    app: x\n");
        final AssertionError error = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
            () -> read(Path.of("misspelt.yaml"), List.of(misspelt)));
        assertTrue(error.getMessage().contains("selectr"), error.getMessage());
    }

    @Test
    void shouldHaveTheServicesTheDeploymentNeeds()
    {
        final StatefulSet engine = one(StatefulSet.class, "warpbus-engine");
        assertEquals(1, engine.getSpec().getReplicas());
        assertEquals("journal", engine.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName());
        assertEquals("ReadWriteOnce", engine.getSpec().getVolumeClaimTemplates().get(0).getSpec().getAccessModes()
            .get(0));
        assertTrue(mounts(engine.getSpec().getTemplate().getSpec().getContainers().get(0), "journal")
            .equals("/var/lib/warpbus/journal"));
        for (final String gateway : List.of("warpbus-gateway-1", "warpbus-gateway-2"))
        {
            final Deployment deployment = one(Deployment.class, gateway);
            assertEquals("Recreate", deployment.getSpec().getStrategy().getType(), gateway + ": one journal writer");
            one(Service.class, gateway);
        }
        one(Service.class, "warpbus-gateway");
        one(StatefulSet.class, "warpbus-recorder");
        one(Secret.class, "warpbus-gateway-credentials");
        assertEquals(3, all(PodDisruptionBudget.class).size());
        assertTrue(all(ConfigMap.class).size() >= 3);
    }

    @Test
    void shouldSelectTheirOwnPodsAndProbeAndServePortsThePodsHave()
    {
        final Map<String, PodTemplateSpec> templates = templates();
        for (final Map.Entry<String, PodTemplateSpec> entry : templates.entrySet())
        {
            final PodTemplateSpec template = entry.getValue();
            final Map<String, String> selector = selectorOf(entry.getKey());
            assertTrue(template.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()),
                entry.getKey() + ": selector " + selector + " does not match its pods' labels");
            final PodSpec pod = template.getSpec();
            assertNotNull(pod.getContainers().get(0).getReadinessProbe(), entry.getKey() + ": no readiness probe");
            final Set<Integer> podPorts = new TreeSet<>();
            for (final Container container : pod.getContainers())
            {
                for (final ContainerPort port : container.getPorts())
                {
                    podPorts.add(port.getContainerPort());
                }
            }
            for (final Container container : pod.getContainers())
            {
                for (final Probe probe : probes(container))
                {
                    final IntOrString port = null != probe.getHttpGet() ? probe.getHttpGet().getPort() :
                        null != probe.getTcpSocket() ? probe.getTcpSocket().getPort() : null;
                    assertNotNull(port, entry.getKey() + "/" + container.getName() + ": a probe without a port");
                    if (null != port.getStrVal())
                    {
                        assertTrue(container.getPorts().stream().anyMatch((p) -> port.getStrVal().equals(p.getName())),
                            entry.getKey() + "/" + container.getName() + ": probe on unknown port " + port.getStrVal());
                    }
                    else
                    {
                        assertTrue(podPorts.contains(port.getIntVal()), entry.getKey() + "/" + container.getName() +
                            ": probe on port " + port.getIntVal() + ", which no container of the pod has");
                    }
                }
                assertNotNull(container.getLivenessProbe(), entry.getKey() + "/" + container.getName() +
                    ": no liveness probe");
            }
        }
        for (final Service service : all(Service.class))
        {
            final Map<String, String> selector = service.getSpec().getSelector();
            final List<PodTemplateSpec> selected = templates.values().stream()
                .filter((t) -> t.getMetadata().getLabels().entrySet().containsAll(selector.entrySet())).toList();
            assertFalse(selected.isEmpty(), "Service " + service.getMetadata().getName() + " selects no pod");
            for (final ServicePort port : service.getSpec().getPorts())
            {
                assertNotNull(port.getName(), service.getMetadata().getName() + ": unnamed port");
                final String target = port.getTargetPort().getStrVal();
                assertNotNull(target, service.getMetadata().getName() + ": target ports are named");
                for (final PodTemplateSpec template : selected)
                {
                    assertTrue(template.getSpec().getContainers().stream().flatMap((c) -> c.getPorts().stream())
                        .anyMatch((p) -> target.equals(p.getName())), "Service " + service.getMetadata().getName() +
                        " targets port " + target + ", which its pods do not name");
                }
            }
        }
        for (final PodDisruptionBudget budget : all(PodDisruptionBudget.class))
        {
            final Map<String, String> selector = budget.getSpec().getSelector().getMatchLabels();
            assertTrue(templates.values().stream().anyMatch((t) -> t.getMetadata().getLabels().entrySet()
                .containsAll(selector.entrySet())), "PodDisruptionBudget " + budget.getMetadata().getName() +
                " selects no pod");
        }
        for (final StatefulSet set : all(StatefulSet.class))
        {
            final Service governing = one(Service.class, set.getSpec().getServiceName());
            assertEquals("None", governing.getSpec().getClusterIP(), set.getMetadata().getName() +
                ": its governing Service must be headless");
        }
    }

    @Test
    void shouldReferOnlyToVolumesConfigMapsSecretsAndClaimsThatExist()
    {
        final Set<String> configMaps = names(ConfigMap.class);
        final Set<String> secrets = names(Secret.class);
        final Set<String> claims = names(PersistentVolumeClaim.class);
        for (final Map.Entry<String, PodTemplateSpec> entry : templates().entrySet())
        {
            final PodSpec pod = entry.getValue().getSpec();
            final Set<String> volumes = new TreeSet<>();
            for (final Volume volume : pod.getVolumes())
            {
                volumes.add(volume.getName());
                if (null != volume.getConfigMap())
                {
                    assertTrue(configMaps.contains(volume.getConfigMap().getName()), entry.getKey() + ": " +
                        volume.getConfigMap().getName());
                }
                if (null != volume.getSecret())
                {
                    assertTrue(secrets.contains(volume.getSecret().getSecretName()), entry.getKey() + ": " +
                        volume.getSecret().getSecretName());
                }
                if (null != volume.getPersistentVolumeClaim())
                {
                    assertTrue(claims.contains(volume.getPersistentVolumeClaim().getClaimName()), entry.getKey() +
                        ": " + volume.getPersistentVolumeClaim().getClaimName());
                }
            }
            final StatefulSet set = find(StatefulSet.class, entry.getKey());
            if (null != set)
            {
                set.getSpec().getVolumeClaimTemplates().forEach((c) -> volumes.add(c.getMetadata().getName()));
            }
            for (final Container container : containers(pod))
            {
                for (final VolumeMount mount : container.getVolumeMounts())
                {
                    assertTrue(volumes.contains(mount.getName()), entry.getKey() + "/" + container.getName() +
                        ": mounts unknown volume " + mount.getName());
                }
                for (final EnvFromSource from : container.getEnvFrom())
                {
                    assertTrue(configMaps.contains(from.getConfigMapRef().getName()), entry.getKey() + ": " +
                        from.getConfigMapRef().getName());
                }
            }
        }
    }

    @Test
    void shouldGiveBusyPollingContainersWholeCoresWithRequestsEqualToLimits()
    {
        for (final Map.Entry<String, PodTemplateSpec> entry : templates().entrySet())
        {
            final PodSpec pod = entry.getValue().getSpec();
            for (final Container container : containers(pod))
            {
                final String where = entry.getKey() + "/" + container.getName();
                final Map<String, Quantity> requests = container.getResources().getRequests();
                final Map<String, Quantity> limits = container.getResources().getLimits();
                assertEquals(Set.of("cpu", "memory"), requests.keySet(), where);
                for (final String resource : List.of("cpu", "memory"))
                {
                    assertEquals(0, Quantity.getAmountInBytes(requests.get(resource)).compareTo(
                        Quantity.getAmountInBytes(limits.get(resource))), where + ": " + resource +
                        " requests != limits (the pod would not be Guaranteed)");
                }
            }
            // The service's own container (the first) busy-polls or may: whole cores, for the static CPU manager.
            final Container main = pod.getContainers().get(0);
            final BigDecimal cpus = Quantity.getAmountInBytes(main.getResources().getLimits().get("cpu"));
            assertTrue(cpus.signum() > 0 && cpus.stripTrailingZeros().scale() <= 0,
                entry.getKey() + ": " + cpus + " CPUs is not whole cores");
        }
    }

    @Test
    void shouldRunAsNonRootAndNameTheIwarpPorts()
    {
        for (final Map.Entry<String, PodTemplateSpec> entry : templates().entrySet())
        {
            final PodSpec pod = entry.getValue().getSpec();
            assertTrue(Boolean.TRUE.equals(pod.getSecurityContext().getRunAsNonRoot()), entry.getKey());
            assertTrue(pod.getSecurityContext().getRunAsUser() > 0, entry.getKey());
            for (final Container container : containers(pod))
            {
                assertFalse(container.getSecurityContext().getAllowPrivilegeEscalation(), entry.getKey());
                assertTrue(container.getImage().matches("warpbus/[a-z]+:[0-9][-.0-9a-z]*"), container.getImage());
                final String image = container.getImage().substring("warpbus/".length(),
                    container.getImage().indexOf(':'));
                final Set<Integer> exposed = DockerfileTest.exposed(DockerfileTest.dockerfile(image));
                for (final ContainerPort port : container.getPorts())
                {
                    assertTrue(exposed.contains(port.getContainerPort()), entry.getKey() + "/" + container.getName() +
                        ": port " + port.getContainerPort() + " is not exposed by docker/" + image + "/Dockerfile");
                }
            }
            final Container main = pod.getContainers().get(0);
            assertTrue(main.getPorts().stream().anyMatch((p) -> p.getName().startsWith("iwarp")),
                entry.getKey() + ": no named iWARP port");
        }
    }

    @Test
    void shouldListEveryManifestInTheKustomization()
    {
        final JsonNode kustomization = DeployFiles.yaml(DeployFiles.root().resolve(DIR).resolve("kustomization.yaml"));
        final Set<String> listed = new TreeSet<>();
        kustomization.path("resources").forEach((r) -> listed.add(r.asString()));
        final Set<String> files = new TreeSet<>();
        manifestFiles().forEach((f) -> files.add(f.getFileName().toString()));
        assertEquals(files, listed);
        assertEquals("warpbus", kustomization.path("namespace").asString());
    }

    @Test
    void shouldRenderWithKustomizeWhereKubectlIsInstalled()
    {
        Assumptions.assumeTrue(null != RequiredTools.find("kubectl"),
            "kubectl is not installed (not a CI prerequisite): the kustomization is checked by listing above");
        final DeployFiles.Result result = DeployFiles.run(List.of(RequiredTools.find("kubectl"), "kustomize",
            DIR.toString()), Map.of(), List.of(), 60);
        assertEquals(0, result.exitCode(), result.output());
        final List<HasMetadata> rendered = read(Path.of("kubectl kustomize"), DeployFiles.YAML.readerFor(
            JsonNode.class).<JsonNode>readValues(result.output()).readAll());
        assertEquals(RESOURCES.size(), rendered.size());
        for (final HasMetadata resource : rendered)
        {
            if (!(resource instanceof Namespace))
            {
                assertEquals("warpbus", resource.getMetadata().getNamespace(), resource.getMetadata().getName());
            }
        }
    }

    static List<Path> manifestFiles()
    {
        return DeployFiles.list(DeployFiles.root().resolve(DIR), ".yaml").stream()
            .filter((p) -> !"kustomization.yaml".equals(p.getFileName().toString())).toList();
    }

    private static List<HasMetadata> read(final Path file, final List<JsonNode> documents)
    {
        final List<HasMetadata> resources = new ArrayList<>();
        for (final JsonNode document : documents)
        {
            final String kind = document.path("apiVersion").asString() + "/" + document.path("kind").asString();
            final Class<? extends HasMetadata> type = KINDS.get(kind);
            if (null == type)
            {
                fail(file + ": unexpected kind " + kind);
            }
            final HasMetadata resource;
            try
            {
                resource = MAPPER.treeToValue(document, type);
            }
            catch (final RuntimeException ex)
            {
                throw new AssertionError(file + ": " + kind + " does not fit the Kubernetes schema: " +
                    ex.getMessage(), ex);
            }
            final List<String> unknown = new ArrayList<>();
            unknownFields(resource, kind, unknown, new IdentityHashMap<>());
            if (!unknown.isEmpty())
            {
                throw new AssertionError(file + ": fields the Kubernetes schema does not have: " + unknown);
            }
            resources.add(resource);
        }
        return resources;
    }

    /**
     * fabric8's model keeps what its schema does not know in {@code additionalProperties} instead of failing: walk
     * the model and collect them.
     */
    private static void unknownFields(final Object value, final String path, final List<String> unknown,
        final Map<Object, Boolean> seen)
    {
        if (null == value || seen.containsKey(value))
        {
            return;
        }
        if (value instanceof Collection<?> collection)
        {
            int i = 0;
            for (final Object element : collection)
            {
                unknownFields(element, path + "[" + i++ + "]", unknown, seen);
            }
            return;
        }
        if (value instanceof Map<?, ?> map)
        {
            for (final Map.Entry<?, ?> entry : map.entrySet())
            {
                unknownFields(entry.getValue(), path + "." + entry.getKey(), unknown, seen);
            }
            return;
        }
        if (!value.getClass().getName().startsWith("io.fabric8.") || value instanceof Quantity ||
            value instanceof IntOrString)
        {
            return;
        }
        seen.put(value, Boolean.TRUE);
        for (final Method method : value.getClass().getMethods())
        {
            if (0 != method.getParameterCount() || !method.getName().startsWith("get") ||
                method.getDeclaringClass() == Object.class)
            {
                continue;
            }
            try
            {
                final Object field = method.invoke(value);
                if ("getAdditionalProperties".equals(method.getName()))
                {
                    if (field instanceof Map<?, ?> extra && !extra.isEmpty())
                    {
                        for (final Object key : extra.keySet())
                        {
                            unknown.add(path + "." + key);
                        }
                    }
                }
                else
                {
                    unknownFields(field, path + "." + method.getName().substring(3), unknown, seen);
                }
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new IllegalStateException(path + "." + method.getName(), ex);
            }
        }
    }

    private static Map<String, PodTemplateSpec> templates()
    {
        final Map<String, PodTemplateSpec> templates = new HashMap<>();
        all(Deployment.class).forEach((d) -> templates.put(d.getMetadata().getName(), d.getSpec().getTemplate()));
        all(StatefulSet.class).forEach((s) -> templates.put(s.getMetadata().getName(), s.getSpec().getTemplate()));
        return templates;
    }

    private static Map<String, String> selectorOf(final String workload)
    {
        final Deployment deployment = find(Deployment.class, workload);
        return null != deployment ? deployment.getSpec().getSelector().getMatchLabels() :
            one(StatefulSet.class, workload).getSpec().getSelector().getMatchLabels();
    }

    private static List<Container> containers(final PodSpec pod)
    {
        final List<Container> containers = new ArrayList<>(pod.getInitContainers());
        containers.addAll(pod.getContainers());
        return containers;
    }

    private static List<Probe> probes(final Container container)
    {
        final List<Probe> probes = new ArrayList<>();
        for (final Probe probe : new Probe[] {container.getStartupProbe(), container.getLivenessProbe(),
            container.getReadinessProbe()})
        {
            if (null != probe)
            {
                probes.add(probe);
            }
        }
        return probes;
    }

    private static String mounts(final Container container, final String volume)
    {
        return container.getVolumeMounts().stream().filter((m) -> volume.equals(m.getName()))
            .map(VolumeMount::getMountPath).findFirst().orElse(null);
    }

    private static <T extends HasMetadata> List<T> all(final Class<T> type)
    {
        return RESOURCES.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static <T extends HasMetadata> Set<String> names(final Class<T> type)
    {
        final Set<String> names = new TreeSet<>();
        all(type).forEach((r) -> names.add(r.getMetadata().getName()));
        return names;
    }

    private static <T extends HasMetadata> T find(final Class<T> type, final String name)
    {
        return all(type).stream().filter((r) -> name.equals(r.getMetadata().getName())).findFirst().orElse(null);
    }

    private static <T extends HasMetadata> T one(final Class<T> type, final String name)
    {
        final T found = find(type, name);
        assertNotNull(found, "no " + type.getSimpleName() + " " + name);
        return found;
    }
}
