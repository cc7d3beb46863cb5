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
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The anchors of a Markdown file's headings, as GitHub makes them: lower case, spaces to hyphens, punctuation other
 * than hyphens and underscores dropped.
 */
final class RunbookAnchors
{
    private RunbookAnchors()
    {
    }

    static Set<String> of(final Path markdown)
    {
        final Set<String> anchors = new TreeSet<>();
        boolean inCode = false;
        for (final String line : DeployFiles.read(markdown).split("\n"))
        {
            if (line.startsWith("```"))
            {
                inCode = !inCode;
            }
            else if (!inCode && line.startsWith("#"))
            {
                anchors.add(anchor(line.replaceFirst("^#+\\s*", "")));
            }
        }
        return anchors;
    }

    static String anchor(final String heading)
    {
        final StringBuilder builder = new StringBuilder();
        for (final char c : heading.strip().toLowerCase(Locale.ROOT).toCharArray())
        {
            if (Character.isLetterOrDigit(c) || '-' == c || '_' == c)
            {
                builder.append(c);
            }
            else if (' ' == c)
            {
                builder.append('-');
            }
        }
        return builder.toString();
    }
}
