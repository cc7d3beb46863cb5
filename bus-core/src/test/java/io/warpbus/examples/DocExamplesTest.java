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
package io.warpbus.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.testing.ProjectFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The code examples of the README and docs/ are the code their tests run: the first java block after the sentence
 * naming the test must be the test's {@code tag::NAME[]} region, line for line (indentation and blank lines aside),
 * except where the block skips code with a {@code // ...} line.
 */
class DocExamplesTest
{
    private static final String ELISION = "// ...";

    @ParameterizedTest(name = "{0} shows {1}")
    @CsvSource({ "README.md, BusExampleTest, bus", "docs/iwarp-engine.md, VerbsExampleTest, verbs" })
    void shouldShowTheCodeItsTestRuns(final String doc, final String test, final String tag) throws IOException
    {
        final Path root = ProjectFiles.root();
        final List<String> shown = javaBlockAfter(Files.readString(root.resolve(doc), StandardCharsets.UTF_8), test);
        final List<String> run = taggedRegion(Files.readAllLines(
            root.resolve("bus-core/src/test/java/io/warpbus/examples/" + test + ".java"), StandardCharsets.UTF_8), tag);
        assertTrue(shown.size() > 10, doc + " has no example after `" + test + "`");
        assertEquals(List.of(), notRun(shown, run), doc + ": example lines that " + test + " does not run, in order");
    }

    @Test
    void shouldFindALineTheTestDoesNotRun()
    {
        final List<String> run = List.of("a();", "b();", "c();");
        assertEquals(List.of(), notRun(List.of("a();", ELISION + " more ...", "c();"), run));
        assertEquals(List.of("c();"), notRun(List.of("a();", "c();"), run), "only an elision may skip code");
        assertEquals(List.of("b();"), notRun(List.of("a();", ELISION, "c();", "b();"), run), "out of order");
        assertEquals(List.of("b();", "c();"), notRun(List.of("b();", "c();"), run), "from the region's first line");
    }

    /**
     * The lines of the first java block after {@code `name`}, trimmed, blank ones dropped.
     */
    static List<String> javaBlockAfter(final String markdown, final String name)
    {
        final int mention = markdown.indexOf("`" + name + "`");
        final int start = mention < 0 ? -1 : markdown.indexOf("```java\n", mention);
        if (start < 0)
        {
            return List.of();
        }
        final int end = markdown.indexOf("\n```", start + 1);
        return trimmed(List.of(markdown.substring(start + "```java\n".length(), end).split("\n")));
    }

    static List<String> taggedRegion(final List<String> source, final String tag)
    {
        final int start = indexOfTrimmed(source, "// tag::" + tag + "[]");
        final int end = indexOfTrimmed(source, "// end::" + tag + "[]");
        assertTrue(start >= 0 && end > start, "no tag::" + tag + "[] ... end::" + tag + "[] region");
        return trimmed(source.subList(start + 1, end));
    }

    /**
     * The shown lines that are not the run lines: the shown lines must be the run lines from the first one on, in
     * order and one after the other, except that after an elision they may continue further down.
     */
    static List<String> notRun(final List<String> shown, final List<String> run)
    {
        final List<String> missing = new ArrayList<>();
        int next = 0;
        boolean skipped = false;
        for (final String line : shown)
        {
            if (line.startsWith(ELISION))
            {
                skipped = true;
                continue;
            }
            final int found = skipped ? indexOf(run, line, next) :
                (next < run.size() && run.get(next).equals(line) ? next : -1);
            if (found < 0)
            {
                missing.add(line);
            }
            else
            {
                next = found + 1;
                skipped = false;
            }
        }
        return missing;
    }

    private static int indexOf(final List<String> lines, final String line, final int from)
    {
        for (int i = from; i < lines.size(); i++)
        {
            if (lines.get(i).equals(line))
            {
                return i;
            }
        }
        return -1;
    }

    private static int indexOfTrimmed(final List<String> lines, final String line)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).trim().equals(line))
            {
                return i;
            }
        }
        return -1;
    }

    private static List<String> trimmed(final List<String> lines)
    {
        final List<String> result = new ArrayList<>();
        for (final String line : lines)
        {
            if (!line.isBlank())
            {
                result.add(line.trim());
            }
        }
        return result;
    }
}
