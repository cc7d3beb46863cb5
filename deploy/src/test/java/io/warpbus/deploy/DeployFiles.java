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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.warpbus.testing.ProjectFiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The deployment files of the checkout (docker/, ops/) and the means to read them: YAML documents as trees, and
 * external programs (docker-compose, promtool) run with a bounded wait.
 */
final class DeployFiles
{
    static final YAMLMapper YAML = YAMLMapper.builder().build();

    private DeployFiles()
    {
    }

    static Path root()
    {
        return ProjectFiles.root();
    }

    static Path file(final String relative)
    {
        return root().resolve(relative);
    }

    static String read(final Path path)
    {
        try
        {
            return Files.readString(path);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + path, ex);
        }
    }

    /**
     * Every YAML document of a file, in order.
     */
    static List<JsonNode> yamlDocuments(final Path path)
    {
        final List<JsonNode> documents = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(path.toFile()))
        {
            while (it.hasNext())
            {
                final JsonNode node = it.next();
                if (null != node && !node.isNull() && !node.isMissingNode())
                {
                    documents.add(node);
                }
            }
        }
        return documents;
    }

    static JsonNode yaml(final Path path)
    {
        final List<JsonNode> documents = yamlDocuments(path);
        if (1 != documents.size())
        {
            throw new IllegalStateException(path + " holds " + documents.size() + " YAML documents, expected one");
        }
        return documents.get(0);
    }

    static List<Path> list(final Path dir, final String suffix)
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.filter((p) -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + dir, ex);
        }
    }

    /**
     * What a program printed (standard output and error together) and its exit code.
     */
    record Result(int exitCode, String output)
    {
    }

    /**
     * Run a program in the checkout's top directory and wait for it, at most {@code timeoutS}.
     */
    static Result run(final List<String> command, final java.util.Map<String, String> environment,
        final List<String> removedEnvironment, final long timeoutS)
    {
        final Path log;
        try
        {
            log = Files.createTempFile("warpbus-deploy-", ".log");
            final ProcessBuilder builder = new ProcessBuilder(command).directory(root().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(environment);
            for (final String name : removedEnvironment)
            {
                builder.environment().remove(name);
            }
            final Process process = builder.start();
            try
            {
                if (!process.waitFor(timeoutS, TimeUnit.SECONDS))
                {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    throw new AssertionError(String.join(" ", command) + " did not finish within " + timeoutS +
                        " s: " + Files.readString(log));
                }
                return new Result(process.exitValue(), Files.readString(log));
            }
            finally
            {
                process.destroyForcibly();
                Files.deleteIfExists(log);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), ex);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
