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
package io.warpbus.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The demo gateway's credentials, made for each run with the gateway's own {@code gateway-user} tool: a person's
 * user with a generated password (trader and admin, so the operators' API opens too) and an API key for
 * the gateway load, whose secret goes to a file of mode 0600 that only the load reads.
 *
 * @param file           the credentials file.
 * @param password       the demo user's password.
 * @param loadKey        the load's API key id.
 * @param loadSecretFile the file with its secret.
 */
record DemoCredentials(Path file, String password, String loadKey, Path loadSecretFile)
{
    private static final Pattern SECRET = Pattern.compile("(?m)^secret (\\S+)$");
    private static final String LOAD_USER = "gwload";
    private static final String LOAD_KEY = "AK-DEMO-LOAD-1";
    private static final char[] PASSWORD_CHARACTERS =
        "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789".toCharArray();
    private static final long TOOL_TIMEOUT_MS = 60_000;

    /**
     * Write the credentials.
     *
     * @param dir         where the files go.
     * @param logs        where the tool's output goes.
     * @param classpath   the gateway's class path.
     * @param toolMain    the tool's main class.
     * @param user        the person's user name.
     * @param accounts    its accounts.
     * @param loadAccount the load's account.
     * @return what was written.
     * @throws IllegalStateException when the tool fails, with its output.
     */
    static DemoCredentials write(final Path dir, final Path logs, final String classpath, final String toolMain,
        final String user, final int[] accounts, final int loadAccount)
    {
        final Path file = dir.resolve("credentials.json");
        final Path secretFile = dir.resolve("gwload.secret");
        try
        {
            Files.deleteIfExists(file);
            final String password = password(16);
            final StringBuilder accountList = new StringBuilder();
            for (final int account : accounts)
            {
                accountList.append(accountList.length() > 0 ? "," : "").append(account);
            }
            run(logs, classpath, toolMain, password, List.of("--file", file.toString(), "add", user, "--accounts",
                accountList.toString(), "--roles", "trader,admin"));
            final String output = run(logs, classpath, toolMain, null, List.of("--file", file.toString(), "add",
                LOAD_USER, "--accounts", String.valueOf(loadAccount), "--no-password", "--api-key", "--key-id",
                LOAD_KEY, "--orders-per-second", "100000", "--order-burst", "100000"));
            final Matcher secret = SECRET.matcher(output);
            if (!secret.find())
            {
                throw new IllegalStateException("gateway-user printed no API key secret: " + output);
            }
            Files.deleteIfExists(secretFile);
            Files.createFile(secretFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                "rw-------")));
            Files.writeString(secretFile, secret.group(1) + "\n");
            return new DemoCredentials(file, password, LOAD_KEY, secretFile);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the gateway's credentials in " + dir, ex);
        }
    }

    private static String run(final Path logs, final String classpath, final String toolMain, final String password,
        final List<String> args) throws IOException
    {
        final List<String> command = new ArrayList<>(DemoChild.javaCommand(classpath));
        command.add(toolMain);
        command.addAll(args);
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().remove("WARPBUS_PASSWORD");
        if (null != password)
        {
            // The password goes through the environment, never the command line that others can read.
            builder.environment().put("WARPBUS_PASSWORD", password);
        }
        final Process process = builder.start();
        final byte[] output;
        try
        {
            output = process.getInputStream().readAllBytes();
            if (!process.waitFor(TOOL_TIMEOUT_MS, TimeUnit.MILLISECONDS))
            {
                process.destroyForcibly();
                throw new IllegalStateException("gateway-user did not finish within " + TOOL_TIMEOUT_MS + " ms");
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing the gateway's credentials");
        }
        final String text = new String(output, StandardCharsets.UTF_8);
        // The log keeps what the tool said, without the secret it printed.
        Files.writeString(logs.resolve("gateway-user.out"), SECRET.matcher(text).replaceAll("secret (not logged)"),
            StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (0 != process.exitValue())
        {
            throw new IllegalStateException("gateway-user " + String.join(" ", args) + " failed with exit code " +
                process.exitValue() + ": " + text.trim());
        }
        return text;
    }

    private static String password(final int length)
    {
        final SecureRandom random = new SecureRandom();
        final char[] password = new char[length];
        for (int i = 0; i < length; i++)
        {
            password[i] = PASSWORD_CHARACTERS[random.nextInt(PASSWORD_CHARACTERS.length)];
        }
        return new String(password);
    }
}
