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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import io.fabric8.kubernetes.api.model.Toleration;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * ops/k8s against the Kubernetes API, the base and every overlay in ops/k8s/overlays: each kustomization rendered
 * here (Kustomize, without kubectl), every document read into its typed model (fabric8's, generated from the API's
 * OpenAPI schema) with no field the schema does not have, then checked as a whole: selectors that select, probes on
 * ports the container has, Services on ports their pods name, references to ConfigMaps, Secrets, volumes, claims and
 * environment variables that exist, whole-core CPU with requests equal to limits and heaps that fit, non-root pods,
 * named iWARP ports, the engine routing to exactly the gateways there are, and the base's kustomization listing
 * every file. Broken overlays (a misspelt field, a patch on what does not exist) must fail.
 */
@Timeout(60)
class KubernetesManifestsTest
{
    private static final Path K8S = Path.of("ops/k8s");
    private static final Path BASE = K8S.resolve("base");
    private static final String DEV = "ops/k8s/overlays/dev";
    private static final String PRODUCTION = "ops/k8s/overlays/production";
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
    private static final Pattern GATEWAY = Pattern.compile("warpbus-gateway-[0-9]+");
    private static final Pattern IMAGE = Pattern.compile("([a-z0-9.-]+(:[0-9]+)?/)?warpbus/([a-z]+):[0-9][-.0-9a-z]*");
    private static final Pattern HEAP = Pattern.compile("-Xmx([0-9]+)([kKmMgG])");
    private static final String STATIC_CPUS = "warpbus.io/cpu-manager-policy";

    private static final Map<String, Rendering> RENDERINGS = new TreeMap<>();

    @BeforeAll
    static void renderEveryKustomization()
    {
        RENDERINGS.clear();
        for (final String dir : kustomizations())
        {
            RENDERINGS.put(dir, render(DeployFiles.root().resolve(dir), dir));
        }
    }

    /**
     * ops/k8s, its base and every overlay: what an operator may apply with kubectl apply -k.
     */
    static List<String> kustomizations()
    {
        final List<String> dirs = new ArrayList<>(List.of(K8S.toString(), BASE.toString()));
        final Path overlays = DeployFiles.root().resolve(K8S).resolve("overlays");
        try (var list = Files.list(overlays))
        {
            list.filter((d) -> Files.isRegularFile(d.resolve("kustomization.yaml"))).sorted()
                .forEach((d) -> dirs.add(K8S.resolve("overlays").resolve(d.getFileName()).toString()));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + overlays, ex);
        }
        return dirs;
    }

    private static Rendering render(final Path dir, final String name)
    {
        return new Rendering(name, read(Path.of(name), Kustomize.render(dir)));
    }

    private static Rendering rendering(final String name)
    {
        final Rendering rendering = RENDERINGS.get(name);
        assertNotNull(rendering, "not rendered: " + name);
        return rendering;
    }

    @Test
    void shouldRenderTheBaseAndBothOverlays()
    {
        assertTrue(RENDERINGS.keySet().containsAll(List.of("ops/k8s", "ops/k8s/base", DEV, PRODUCTION)),
            RENDERINGS.keySet().toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldReadEveryDocumentIntoTheKubernetesModelWithNoUnknownField(final String name)
    {
        final Rendering rendering = rendering(name);
        assertTrue(rendering.resources().size() >= 15, name + ": documents: " + rendering.resources().size());
        for (final HasMetadata resource : rendering.resources())
        {
            assertNotNull(resource.getMetadata().getName(), resource.toString());
            assertTrue(resource.getMetadata().getName().matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?"),
                resource.getMetadata().getName());
            if (!(resource instanceof Namespace))
            {
                assertEquals("warpbus", resource.getMetadata().getNamespace(), name + ": " +
                    resource.getMetadata().getName());
            }
        }
    }

    @Test
    void shouldCatchAFieldTheSchemaDoesNotHave()
    {
        final JsonNode misspelt = DeployFiles.YAML.readTree("apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n" +
            "spec:\n  selectr:\n    app: x\n");
        final AssertionError error = assertThrows(AssertionError.class,
            () -> read(Path.of("misspelt.yaml"), List.of(misspelt)));
        assertTrue(error.getMessage().contains("selectr"), error.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldHaveTheServicesTheDeploymentNeeds(final String name)
    {
        final Rendering rendering = rendering(name);
        final StatefulSet engine = rendering.one(StatefulSet.class, "warpbus-engine");
        assertEquals(1, engine.getSpec().getReplicas());
        assertEquals("journal", engine.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName());
        assertEquals("ReadWriteOnce", engine.getSpec().getVolumeClaimTemplates().get(0).getSpec().getAccessModes()
            .get(0));
        assertEquals("/var/lib/warpbus/journal",
            mounts(engine.getSpec().getTemplate().getSpec().getContainers().get(0), "journal"));
        final Set<String> gateways = gateways(rendering);
        assertFalse(gateways.isEmpty(), name + ": no gateway");
        for (final String gateway : gateways)
        {
            final Deployment deployment = rendering.one(Deployment.class, gateway);
            assertEquals("Recreate", deployment.getSpec().getStrategy().getType(), gateway + ": one journal writer");
            rendering.one(Service.class, gateway);
            rendering.one(ConfigMap.class, gateway);
            rendering.one(PersistentVolumeClaim.class, gateway + "-journal");
        }
        // The engine routes orders from exactly the gateways there are: one it does not know would trade nothing,
        // one that is gone would be reconnected to for ever.
        final List<String> arguments = rendering.arguments(engine.getSpec().getTemplate().getSpec().getContainers()
            .get(0));
        final Set<String> routed = new TreeSet<>();
        for (int i = 0; i < arguments.size() - 1; i++)
        {
            if ("--route".equals(arguments.get(i)))
            {
                final Matcher endpoint = Pattern.compile("endpoint=(warpbus-gateway-[0-9]+):").matcher(
                    arguments.get(i + 1));
                assertTrue(endpoint.find(), name + ": route " + arguments.get(i + 1) + " names no gateway Service");
                routed.add(endpoint.group(1));
            }
        }
        assertEquals(gateways, routed, name + ": the engine's routes");
        rendering.one(Service.class, "warpbus-gateway");
        rendering.one(StatefulSet.class, "warpbus-recorder");
        rendering.one(Secret.class, "warpbus-gateway-credentials");
        assertEquals(3, rendering.all(PodDisruptionBudget.class).size());
        assertTrue(rendering.all(ConfigMap.class).size() >= 3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldSelectTheirOwnPodsAndProbeAndServePortsThePodsHave(final String name)
    {
        final Rendering rendering = rendering(name);
        final Map<String, PodTemplateSpec> templates = rendering.templates();
        for (final Map.Entry<String, PodTemplateSpec> entry : templates.entrySet())
        {
            final PodTemplateSpec template = entry.getValue();
            final Map<String, String> selector = rendering.selectorOf(entry.getKey());
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
        for (final Service service : rendering.all(Service.class))
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
        for (final PodDisruptionBudget budget : rendering.all(PodDisruptionBudget.class))
        {
            final Map<String, String> selector = budget.getSpec().getSelector().getMatchLabels();
            assertTrue(templates.values().stream().anyMatch((t) -> t.getMetadata().getLabels().entrySet()
                .containsAll(selector.entrySet())), "PodDisruptionBudget " + budget.getMetadata().getName() +
                " selects no pod");
        }
        for (final StatefulSet set : rendering.all(StatefulSet.class))
        {
            final Service governing = rendering.one(Service.class, set.getSpec().getServiceName());
            assertEquals("None", governing.getSpec().getClusterIP(), set.getMetadata().getName() +
                ": its governing Service must be headless");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldReferOnlyToVolumesConfigMapsSecretsAndClaimsThatExist(final String name)
    {
        final Rendering rendering = rendering(name);
        final Set<String> configMaps = rendering.names(ConfigMap.class);
        final Set<String> secrets = rendering.names(Secret.class);
        final Set<String> claims = rendering.names(PersistentVolumeClaim.class);
        for (final Map.Entry<String, PodTemplateSpec> entry : rendering.templates().entrySet())
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
            final StatefulSet set = rendering.find(StatefulSet.class, entry.getKey());
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldGiveBusyPollingContainersWholeCoresWithRequestsEqualToLimits(final String name)
    {
        final Rendering rendering = rendering(name);
        for (final Map.Entry<String, PodTemplateSpec> entry : rendering.templates().entrySet())
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
            for (final Container container : containers(pod))
            {
                // The JVM's heap below the container's memory limit, with room for metaspace, threads and the
                // counters' memory volume; a heap at the limit is an OOM kill waiting for a full heap.
                final String options = rendering.environment(container).get("JAVA_OPTS");
                final Matcher heap = HEAP.matcher(null == options ? "" : options);
                if (heap.find())
                {
                    final long heapBytes = Long.parseLong(heap.group(1)) << switch (heap.group(2).toLowerCase())
                    {
                        case "k" -> 10;
                        case "m" -> 20;
                        default -> 30;
                    };
                    final BigDecimal limit = Quantity.getAmountInBytes(container.getResources().getLimits()
                        .get("memory"));
                    assertTrue(BigDecimal.valueOf(heapBytes).compareTo(limit) < 0, name + ": " + entry.getKey() +
                        "/" + container.getName() + ": heap " + heap.group() + " does not fit the memory limit " +
                        limit);
                }
            }
            // The service's own container (the first) busy-polls or may: whole cores, for the static CPU manager.
            final Container main = pod.getContainers().get(0);
            final BigDecimal cpus = Quantity.getAmountInBytes(main.getResources().getLimits().get("cpu"));
            assertTrue(cpus.signum() > 0 && cpus.stripTrailingZeros().scale() <= 0,
                entry.getKey() + ": " + cpus + " CPUs is not whole cores");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldRunAsNonRootAndNameTheIwarpPorts(final String name)
    {
        final Rendering rendering = rendering(name);
        for (final Map.Entry<String, PodTemplateSpec> entry : rendering.templates().entrySet())
        {
            final PodSpec pod = entry.getValue().getSpec();
            assertTrue(Boolean.TRUE.equals(pod.getSecurityContext().getRunAsNonRoot()), entry.getKey());
            assertTrue(pod.getSecurityContext().getRunAsUser() > 0, entry.getKey());
            for (final Container container : containers(pod))
            {
                assertFalse(container.getSecurityContext().getAllowPrivilegeEscalation(), entry.getKey());
                final Matcher matcher = IMAGE.matcher(container.getImage());
                assertTrue(matcher.matches(), name + ": image " + container.getImage() + " is not " + IMAGE);
                final String image = matcher.group(3);
                final Set<Integer> exposed = DockerfileTest.exposed(DockerfileTest.image(image));
                for (final ContainerPort port : container.getPorts())
                {
                    assertTrue(exposed.contains(port.getContainerPort()), entry.getKey() + "/" + container.getName() +
                        ": port " + port.getContainerPort() + " is not exposed by docker/Dockerfile's target " + image);
                }
            }
            final Container main = pod.getContainers().get(0);
            assertTrue(main.getPorts().stream().anyMatch((p) -> p.getName().startsWith("iwarp")),
                entry.getKey() + ": no named iWARP port");
        }
    }


    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldDefineEveryVariableTheArgumentsUse(final String name)
    {
        assertEquals(List.of(), rendering(name).undefinedVariables(), name);
    }

    @Test
    void shouldListEveryManifestInTheBaseKustomization()
    {
        final JsonNode kustomization = DeployFiles.yaml(DeployFiles.root().resolve(BASE).resolve(
            "kustomization.yaml"));
        final Set<String> listed = new TreeSet<>();
        kustomization.path("resources").forEach((r) -> listed.add(r.asString()));
        final Set<String> files = new TreeSet<>();
        manifestFiles().forEach((f) -> files.add(f.getFileName().toString()));
        assertEquals(files, listed);
        assertEquals("warpbus", kustomization.path("namespace").asString());
        assertEquals(rendering(BASE.toString()).resources().size(), rendering(K8S.toString()).resources().size());
    }

    @Test
    void shouldRenderTheDevOverlayWithOneSmallGateway()
    {
        final Rendering base = rendering(BASE.toString());
        final Rendering dev = rendering(DEV);
        assertEquals(Set.of("warpbus-gateway-1"), gateways(dev));
        assertEquals("backoff", dev.one(ConfigMap.class, "warpbus-engine").getData().get("IDLE"),
            "the engine shares cores in dev: it must not spin");
        int smaller = 0;
        for (final Map.Entry<String, PodTemplateSpec> entry : dev.templates().entrySet())
        {
            final PodSpec basePod = base.templates().get(entry.getKey()).getSpec();
            for (final Container container : containers(entry.getValue().getSpec()))
            {
                final Container baseContainer = containers(basePod).stream()
                    .filter((c) -> c.getName().equals(container.getName())).findFirst().orElseThrow();
                for (final String resource : List.of("cpu", "memory"))
                {
                    final int order = Quantity.getAmountInBytes(container.getResources().getLimits().get(resource))
                        .compareTo(Quantity.getAmountInBytes(baseContainer.getResources().getLimits().get(resource)));
                    assertTrue(order <= 0, entry.getKey() + "/" + container.getName() + ": more " + resource +
                        " in dev than in the base");
                    smaller += order < 0 ? 1 : 0;
                }
            }
        }
        assertTrue(smaller >= 4, "dev shrinks " + smaller + " limits");
        assertEquals(0, Quantity.getAmountInBytes(new Quantity("5Gi")).compareTo(Quantity.getAmountInBytes(
            dev.one(StatefulSet.class, "warpbus-engine").getSpec().getVolumeClaimTemplates().get(0).getSpec()
            .getResources().getRequests().get("storage"))));
    }

    @Test
    void shouldRenderTheProductionOverlayWithRegistryImagesStorageClassesAndPinnedCpus()
    {
        final Rendering production = rendering(PRODUCTION);
        assertEquals(gateways(rendering(BASE.toString())), gateways(production));
        for (final Map.Entry<String, PodTemplateSpec> entry : production.templates().entrySet())
        {
            for (final Container container : containers(entry.getValue().getSpec()))
            {
                assertTrue(container.getImage().matches("registry\\.warpbus\\.internal/warpbus/[a-z]+:[0-9][.0-9]*"),
                    entry.getKey() + "/" + container.getName() + ": " + container.getImage());
            }
        }
        final List<PersistentVolumeClaim> claims = new ArrayList<>(production.all(PersistentVolumeClaim.class));
        production.all(StatefulSet.class).forEach((s) -> claims.addAll(s.getSpec().getVolumeClaimTemplates()));
        assertEquals(4, claims.size());
        for (final PersistentVolumeClaim claim : claims)
        {
            assertEquals("warpbus-local-nvme", claim.getSpec().getStorageClassName(), claim.getMetadata().getName());
        }
        final List<String> pinned = new ArrayList<>(gateways(production));
        pinned.add("warpbus-engine");
        for (final String workload : pinned)
        {
            final PodSpec pod = production.templates().get(workload).getSpec();
            assertEquals("static", pod.getNodeSelector().get(STATIC_CPUS), workload);
            final Toleration toleration = pod.getTolerations().get(0);
            assertEquals(List.of("warpbus.io/dedicated", "trading", "NoSchedule"), List.of(toleration.getKey(),
                toleration.getValue(), toleration.getEffect()), workload);
        }
        assertEquals(0, new BigDecimal(4).compareTo(Quantity.getAmountInBytes(production.one(StatefulSet.class,
            "warpbus-engine").getSpec().getTemplate().getSpec().getContainers().get(0).getResources().getLimits()
            .get("cpu"))));
    }

    @Test
    void shouldRefuseAnOverlayWhosePatchDoesNotFit(@TempDir final Path dir)
    {
        final String base = DeployFiles.root().resolve(BASE).toString();
        final String engine = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: warpbus-engine\n";
        final String target = "    target:\n      group: apps\n      version: v1\n      kind: StatefulSet\n" +
            "      name: %s\n";
        // A misspelt field renders (kustomize does not know the schema) but does not fit the model.
        final AssertionError misspelt = assertThrows(AssertionError.class, () -> render(overlay(dir.resolve("a"),
            base, "  - path: p.yaml\n", engine + "spec:\n  template:\n    spec:\n      nodeSelectr:\n" +
            "        disk: ssd\n"), "a"));
        assertTrue(misspelt.getMessage().contains("nodeSelectr"), misspelt.getMessage());
        // A strategic-merge patch of a resource the base does not have.
        assertRefused("warpbus-gateway-3, which no resource is", () -> Kustomize.render(overlay(dir.resolve("b"),
            base, "  - path: p.yaml\n", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n" +
            "  name: warpbus-gateway-3\nspec:\n  replicas: 1\n")));
        // A JSON 6902 patch whose target does not exist.
        assertRefused("matches no resource", () -> Kustomize.render(overlay(dir.resolve("c"), base,
            "  - path: p.yaml\n" + target.formatted("warpbus-engin"), "- op: replace\n  path: /spec/replicas\n" +
            "  value: 2\n")));
        // A JSON 6902 test that the base no longer passes (its arguments moved), and a path that does not exist.
        assertRefused("test failed", () -> Kustomize.render(overlay(dir.resolve("d"), base,
            "  - path: p.yaml\n" + target.formatted("warpbus-engine"), "- op: test\n" +
            "  path: /spec/template/spec/containers/0/args/20\n  value: --account\n")));
        assertRefused("nodeSelector does not exist", () -> Kustomize.render(overlay(dir.resolve("e"), base,
            "  - path: p.yaml\n" + target.formatted("warpbus-engine"), "- op: replace\n" +
            "  path: /spec/template/spec/nodeSelector/disk\n  value: ssd\n")));
        // What is not rendered here is refused by name, not ignored.
        assertRefused("namePrefix", () -> Kustomize.render(overlay(dir.resolve("f"), base, "namePrefix: x-\n" +
            "patches:\n  - path: p.yaml\n", engine + "spec:\n  replicas: 1\n")));
        // Well-formed but inconsistent: the route's variable removed and the argument left.
        final Rendering routeless = render(overlay(dir.resolve("g"), base, "  - path: p.yaml\n",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: warpbus-engine\ndata:\n  ROUTE_2: null\n"), "g");
        assertEquals(List.of("warpbus-engine/engine: $(ROUTE_2)"), routeless.undefinedVariables());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kustomizations")
    void shouldRenderAsKubectlKustomizeDoesWhereKubectlIsInstalled(final String name)
    {
        Assumptions.assumeTrue(null != RequiredTools.find("kubectl"),
            "kubectl is not installed (not a CI prerequisite): the overlays are rendered by Kustomize alone");
        final DeployFiles.Result result = DeployFiles.run(List.of(RequiredTools.find("kubectl"), "kustomize",
            name), Map.of(), List.of(), 60);
        assertEquals(0, result.exitCode(), result.output());
        final Map<String, JsonNode> kubectl = new TreeMap<>();
        for (final JsonNode document : DeployFiles.YAML.readerFor(JsonNode.class).<JsonNode>readValues(
            result.output()).readAll())
        {
            kubectl.put(Kustomize.id(document), document);
        }
        final Map<String, JsonNode> ours = new TreeMap<>();
        Kustomize.render(DeployFiles.root().resolve(name)).forEach((d) -> ours.put(Kustomize.id(d), d));
        assertEquals(kubectl.keySet(), ours.keySet(), name);
        for (final Map.Entry<String, JsonNode> entry : kubectl.entrySet())
        {
            assertEquals(entry.getValue(), ours.get(entry.getKey()), name + ": " + entry.getKey());
        }
    }

    private static void assertRefused(final String expected, final org.junit.jupiter.api.function.Executable render)
    {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, render);
        assertTrue(error.getMessage().contains(expected), error.getMessage());
    }

    /**
     * An overlay in {@code dir} on the base, with {@code patches} (or other kustomization lines) and one patch file,
     * p.yaml.
     */
    private static Path overlay(final Path dir, final String base, final String patches, final String patch)
    {
        try
        {
            Files.createDirectories(dir);
            final String section = patches.startsWith("  ") ? "patches:\n" + patches : patches;
            Files.writeString(dir.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\n" +
                "kind: Kustomization\nresources:\n  - " + base + "\n" + section);
            Files.writeString(dir.resolve("p.yaml"), patch);
            return dir;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write an overlay in " + dir, ex);
        }
    }

    private static Set<String> gateways(final Rendering rendering)
    {
        final Set<String> gateways = new TreeSet<>();
        rendering.names(Deployment.class).stream().filter((n) -> GATEWAY.matcher(n).matches()).forEach(gateways::add);
        return gateways;
    }

    static List<Path> manifestFiles()
    {
        return DeployFiles.list(DeployFiles.root().resolve(BASE), ".yaml").stream()
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

}
