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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Dockerfile read the way {@code docker build} reads it: comments and parser directives dropped, continuation
 * lines joined, each instruction a keyword and its arguments, grouped into the stages that each {@code FROM}
 * starts. Exec-form arguments (a JSON array) are decoded.
 */
final class Dockerfile
{
    private static final JsonMapper JSON = JsonMapper.builder().build();

    final Path path;
    final List<Stage> stages = new ArrayList<>();

    record Instruction(int line, String keyword, String arguments)
    {
        /**
         * The exec form's words, or null when the instruction is in shell form.
         */
        List<String> execForm()
        {
            final String text = arguments.strip();
            if (!text.startsWith("["))
            {
                return null;
            }
            final JsonNode array = JSON.readTree(text);
            final List<String> words = new ArrayList<>();
            for (final JsonNode word : array)
            {
                words.add(word.asString());
            }
            return words;
        }

        /**
         * The words of the arguments, split on white space, options ({@code --from=x}) included.
         */
        List<String> words()
        {
            final List<String> exec = execForm();
            return null != exec ? exec : List.of(arguments.strip().split("\\s+"));
        }
    }

    record Stage(String image, String name, List<Instruction> instructions)
    {
        List<Instruction> all(final String keyword)
        {
            return instructions.stream().filter((i) -> i.keyword.equals(keyword)).toList();
        }

        Instruction last(final String keyword)
        {
            final List<Instruction> found = all(keyword);
            return found.isEmpty() ? null : found.get(found.size() - 1);
        }
    }

    private Dockerfile(final Path path)
    {
        this.path = path;
    }

    static Dockerfile parse(final Path path)
    {
        final Dockerfile dockerfile = new Dockerfile(path);
        final String[] lines = DeployFiles.read(path).split("\n", -1);
        StringBuilder pending = null;
        int start = 0;
        for (int i = 0; i < lines.length; i++)
        {
            final String line = lines[i];
            final String trimmed = line.strip();
            if (trimmed.startsWith("#") || (trimmed.isEmpty() && null == pending))
            {
                continue;
            }
            if (null == pending)
            {
                pending = new StringBuilder();
                start = i + 1;
            }
            if (trimmed.endsWith("\\"))
            {
                pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            pending.append(trimmed);
            dockerfile.add(start, pending.toString());
            pending = null;
        }
        if (null != pending)
        {
            throw new IllegalStateException(path + ":" + start + ": the last instruction ends with a continuation");
        }
        return dockerfile;
    }

    private void add(final int line, final String text)
    {
        final int space = text.indexOf(' ');
        if (space <= 0)
        {
            throw new IllegalStateException(path + ":" + line + ": an instruction without arguments: " + text);
        }
        final String keyword = text.substring(0, space).toUpperCase(Locale.ROOT);
        final String arguments = text.substring(space + 1).strip();
        if ("FROM".equals(keyword))
        {
            final String[] words = arguments.split("\\s+");
            final String name = words.length >= 3 && "AS".equalsIgnoreCase(words[1]) ? words[2] : null;
            stages.add(new Stage(words[0], name, new ArrayList<>()));
        }
        else if (stages.isEmpty())
        {
            throw new IllegalStateException(path + ":" + line + ": " + keyword + " before the first FROM");
        }
        stages.get(stages.size() - 1).instructions.add(new Instruction(line, keyword, arguments));
    }

    Stage finalStage()
    {
        return stages.get(stages.size() - 1);
    }

    Stage stage(final String name)
    {
        return stages.stream().filter((s) -> name.equals(s.name)).findFirst().orElse(null);
    }

    /**
     * A target as {@code docker build --target NAME} builds it: the named stage on top of the stages it is built
     * {@code FROM}, flattened into one: the image is the base image of the first stage of the chain, the instructions
     * are those of every stage of the chain, base first.
     */
    Stage target(final String name)
    {
        final Stage top = stage(name);
        if (null == top)
        {
            throw new IllegalStateException(path + ": no stage named " + name);
        }
        final List<Stage> chain = new ArrayList<>();
        for (Stage stage = top; null != stage; stage = stage(stage.image))
        {
            if (chain.size() > stages.size())
            {
                throw new IllegalStateException(path + ": stage " + name + " is built from itself");
            }
            chain.add(0, stage);
        }
        final List<Instruction> instructions = new ArrayList<>();
        for (final Stage stage : chain)
        {
            instructions.addAll(stage.instructions);
        }
        return new Stage(chain.get(0).image, top.name, instructions);
    }
}
