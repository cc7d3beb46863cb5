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
package io.warpbus.gateway.security;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.warpbus.gateway.session.User;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ./warpbus gateway-user}: keeps a gateway credentials file, so nobody writes password hashes or key secrets
 * by hand.
 * <pre>
 * ./warpbus gateway-user --file FILE add NAME --accounts 101,102 [--roles trader,admin] [--market-data ACME,BETA]
 *                        [--orders-per-second N] [--order-burst N] [--password-env VAR] [--no-password]
 *                        [--api-key [--key-id ID]]
 * ./warpbus gateway-user --file FILE password NAME [--password-env VAR]
 * ./warpbus gateway-user --file FILE add-key NAME [--key-id ID]     prints the key id and its secret, once
 * ./warpbus gateway-user --file FILE remove-key NAME ID | remove NAME | list
 * </pre>
 * The password comes from the environment variable {@code --password-env} names (default
 * {@code WARPBUS_PASSWORD}), else the first line of standard input; never from the command line. The file is
 * written whole to a temporary file of mode 0600 beside it, read back with the gateway's own {@link CredentialStore}
 * checks, and only then moved over the old one, so a mistake never leaves a file the gateway refuses.
 */
public final class CredentialsTool
{
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final String USAGE = """
        usage: ./warpbus gateway-user --file FILE add NAME [--accounts N,...] [--roles trader|admin|viewer,...]
                 [--market-data SYMBOL,...|*] [--orders-per-second N] [--order-burst N] [--password-env VAR]
                 [--no-password] [--api-key [--key-id ID]]
               ./warpbus gateway-user --file FILE password NAME [--password-env VAR]
               ./warpbus gateway-user --file FILE add-key NAME [--key-id ID]
               ./warpbus gateway-user --file FILE remove-key NAME ID
               ./warpbus gateway-user --file FILE remove NAME
               ./warpbus gateway-user --file FILE list""";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final List<String> DEFAULT_ROLES = List.of(User.TRADER);

    private final PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
    private final PrintStream out;
    private final InputStream in;
    private final Function<String, String> environment;

    CredentialsTool(final PrintStream out, final InputStream in,
        final Function<String, String> environment)
    {
        this.out = out;
        this.in = in;
        this.environment = environment;
    }

    /**
     * Run the tool.
     *
     * @param args the command.
     */
    public static void main(final String[] args)
    {
        System.exit(new CredentialsTool(System.out, System.in, System::getenv).run(args, System.err));
    }

    int run(final String[] args, final PrintStream err)
    {
        final Arguments arguments;
        try
        {
            arguments = Arguments.parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("gateway-user: " + ex.getMessage());
            err.println(USAGE);
            return EXIT_USAGE;
        }
        try
        {
            final ObjectNode root = read(arguments.file());
            final boolean changed = apply(arguments, root);
            if (changed)
            {
                write(arguments.file(), root);
            }
            return EXIT_OK;
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("gateway-user: " + ex.getMessage());
            return EXIT_FAILED;
        }
        catch (final IOException ex)
        {
            err.println("gateway-user: " + arguments.file() + ": " + ex);
            return EXIT_FAILED;
        }
    }

    private boolean apply(final Arguments arguments, final ObjectNode root) throws IOException
    {
        final ArrayNode users = (ArrayNode)root.get("users");
        final String name = arguments.name();
        switch (arguments.command())
        {
            case "list":
                for (final JsonNode user : users)
                {
                    out.println(describe(user));
                }
                return false;
            case "add":
            {
                if (null != find(users, name))
                {
                    throw new IllegalArgumentException("user '" + name + "' already exists; remove it first, or " +
                        "use 'password' to change the password");
                }
                final ObjectNode user = users.addObject().put("name", name);
                if (!arguments.flag("--no-password"))
                {
                    user.put("password", encoder.encode(password(arguments, name)));
                }
                final ArrayNode accounts = user.putArray("accounts");
                for (final String account : arguments.list("--accounts", List.of()))
                {
                    accounts.add(number("--accounts", account));
                }
                strings(user.putArray("roles"), arguments.list("--roles", DEFAULT_ROLES));
                strings(user.putArray("marketData"), arguments.list("--market-data", List.of("*")));
                if (null != arguments.option("--orders-per-second"))
                {
                    user.put("ordersPerSecond", number("--orders-per-second", arguments.option("--orders-per-second")));
                }
                if (null != arguments.option("--order-burst"))
                {
                    user.put("orderBurst", number("--order-burst", arguments.option("--order-burst")));
                }
                out.println("added " + describe(user));
                if (arguments.flag("--api-key"))
                {
                    addKey(user, name, arguments.option("--key-id"));
                }
                return true;
            }
            case "password":
                existing(users, name).put("password", encoder.encode(password(arguments, name)));
                out.println("password of " + name + " changed");
                return true;
            case "add-key":
                addKey(existing(users, name), name, arguments.option("--key-id"));
                return true;
            case "remove-key":
            {
                final JsonNode keys = existing(users, name).path("apiKeys");
                for (int i = 0; i < keys.size(); i++)
                {
                    if (arguments.keyId().equals(keys.get(i).path("id").asString()))
                    {
                        ((ArrayNode)keys).remove(i);
                        out.println("removed API key " + arguments.keyId() + " of " + name);
                        return true;
                    }
                }
                throw new IllegalArgumentException("user '" + name + "' has no API key " + arguments.keyId());
            }
            case "remove":
                for (int i = 0; i < users.size(); i++)
                {
                    if (name.equals(users.get(i).path("name").asString()))
                    {
                        users.remove(i);
                        out.println("removed " + name);
                        return true;
                    }
                }
                throw new IllegalArgumentException("no user '" + name + "'");
            default:
                throw new IllegalStateException(arguments.command());
        }
    }

    private void addKey(final ObjectNode user, final String name, final String keyId)
    {
        final String id = null == keyId ? "AK-" + name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "") + "-" +
            hex(4) : keyId;
        final byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        final String encoded = Base64.getEncoder().encodeToString(secret);
        final ArrayNode keys = user.has("apiKeys") ? (ArrayNode)user.get("apiKeys") : user.putArray("apiKeys");
        for (final JsonNode key : keys)
        {
            if (id.equals(key.path("id").asString()))
            {
                throw new IllegalArgumentException("user '" + name + "' already has API key " + id);
            }
        }
        keys.addObject().put("id", id).put("secret", encoded);
        out.println("api key " + id);
        out.println("secret " + encoded);
        out.println("(the secret is shown only now: give it to the client, e.g. in a file of mode 0600)");
    }

    private String password(final Arguments arguments, final String name) throws IOException
    {
        final String variable = null == arguments.option("--password-env") ? "WARPBUS_PASSWORD" :
            arguments.option("--password-env");
        String password = environment.apply(variable);
        if (null == password)
        {
            if (null != System.console() && System.in == in)
            {
                final char[] typed = System.console().readPassword("password for %s: ", name);
                password = null == typed ? null : new String(typed);
            }
            else
            {
                password = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
            }
        }
        if (null == password || password.isEmpty())
        {
            throw new IllegalArgumentException("no password for '" + name + "': set " + variable + " or give it on " +
                "standard input (or add the user with --no-password to allow API keys only)");
        }
        if (password.length() < 8)
        {
            throw new IllegalArgumentException("the password of '" + name + "' must have at least 8 characters");
        }
        return password;
    }

    private static ObjectNode read(final Path file) throws IOException
    {
        if (!Files.exists(file))
        {
            final ObjectNode root = JSON.createObjectNode();
            root.putArray("users");
            return root;
        }
        final JsonNode root;
        try
        {
            root = JSON.readTree(Files.readString(file));
        }
        catch (final JacksonException ex)
        {
            throw new IllegalArgumentException("credentials file " + file + " is not valid JSON: " +
                ex.getOriginalMessage());
        }
        if (!(root instanceof ObjectNode) || !root.path("users").isArray())
        {
            throw new IllegalArgumentException("credentials file " + file + " must hold an object with a \"users\" " +
                "array");
        }
        return (ObjectNode)root;
    }

    private static void write(final Path file, final ObjectNode root) throws IOException
    {
        final Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        final Path temporary = directory.resolve("." + file.getFileName() + "." + hex(4) + ".tmp");
        try
        {
            Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                "rw-------")));
        }
        catch (final FileAlreadyExistsException ex)
        {
            throw new IOException("temporary file " + temporary + " exists", ex);
        }
        try
        {
            Files.writeString(temporary, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
            // The gateway's own checks: a file this tool writes is one the gateway starts with.
            try
            {
                CredentialStore.load(temporary, true, 1, 1);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(ex.getMessage().replace(temporary.toString(), file.toString()) +
                    " (nothing written)");
            }
            try
            {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            catch (final AtomicMoveNotSupportedException ex)
            {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        finally
        {
            Files.deleteIfExists(temporary);
        }
    }

    private static ObjectNode find(final ArrayNode users, final String name)
    {
        for (final JsonNode user : users)
        {
            if (name.equals(user.path("name").asString()))
            {
                return (ObjectNode)user;
            }
        }
        return null;
    }

    private static ObjectNode existing(final ArrayNode users, final String name)
    {
        final ObjectNode user = find(users, name);
        if (null == user)
        {
            throw new IllegalArgumentException("no user '" + name + "'");
        }
        return user;
    }

    private static String describe(final JsonNode user)
    {
        final List<String> keys = new ArrayList<>();
        user.path("apiKeys").forEach((key) -> keys.add(key.path("id").asString()));
        return user.path("name").asString() + " accounts " + user.path("accounts") + " roles " + user.path("roles") +
            " marketData " + user.path("marketData") + (user.has("password") ? " password set" : " no password") +
            (keys.isEmpty() ? "" : " apiKeys " + keys);
    }

    private static void strings(final ArrayNode array, final List<String> values)
    {
        values.forEach(array::add);
    }

    private static long number(final String option, final String text)
    {
        try
        {
            return Long.parseLong(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException(option + ": '" + text + "' is not a whole number");
        }
    }

    private static String hex(final int bytes)
    {
        final byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return HexFormat.of().withUpperCase().formatHex(random);
    }

    /**
     * A parsed command line: the file, the command, its user (and key id) and its options.
     */
    record Arguments(Path file, String command, String name, String keyId, Map<String, String> options)
    {
        private static final Set<String> FLAGS = Set.of("--no-password", "--api-key");
        private static final Map<String, Set<String>> OPTIONS = Map.of(
            "add", Set.of("--accounts", "--roles", "--market-data", "--orders-per-second", "--order-burst",
                "--password-env", "--no-password", "--api-key", "--key-id"),
            "password", Set.of("--password-env"),
            "add-key", Set.of("--key-id"),
            "remove-key", Set.of(),
            "remove", Set.of(),
            "list", Set.of());

        static Arguments parse(final String[] args)
        {
            Path file = null;
            final List<String> positional = new ArrayList<>();
            final Map<String, String> options = new HashMap<>();
            for (int i = 0; i < args.length; i++)
            {
                final String arg = args[i];
                if (!arg.startsWith("--"))
                {
                    positional.add(arg);
                }
                else if (FLAGS.contains(arg))
                {
                    options.put(arg, "true");
                }
                else if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException("option " + arg + " needs a value");
                }
                else if ("--file".equals(arg))
                {
                    file = Path.of(args[++i]);
                }
                else
                {
                    options.put(arg, args[++i]);
                }
            }
            if (null == file)
            {
                throw new IllegalArgumentException("--file is required");
            }
            if (positional.isEmpty() || !OPTIONS.containsKey(positional.get(0)))
            {
                throw new IllegalArgumentException("a command is required: add, password, add-key, remove-key, " +
                    "remove or list");
            }
            final String command = positional.get(0);
            final int expected = switch (command)
            {
                case "list" -> 1;
                case "remove-key" -> 3;
                default -> 2;
            };
            if (positional.size() != expected)
            {
                throw new IllegalArgumentException(command + " takes " + (expected - 1) + " argument(s), not " +
                    (positional.size() - 1) + ": " + positional.subList(1, positional.size()));
            }
            for (final String option : options.keySet())
            {
                if (!OPTIONS.get(command).contains(option))
                {
                    throw new IllegalArgumentException(command + " has no option " + option);
                }
            }
            final String name = expected > 1 ? positional.get(1) : null;
            if (null != name && !CredentialStore.NAME.matcher(name).matches())
            {
                throw new IllegalArgumentException("user name '" + name + "' must be 1 to 64 of A-Z a-z 0-9 . _ @ -");
            }
            final Arguments arguments = new Arguments(file, command, name, expected > 2 ? positional.get(2) : null,
                Map.copyOf(options));
            if ("add".equals(command) && !arguments.flag("--accounts") &&
                arguments.list("--roles", DEFAULT_ROLES).contains(User.TRADER))
            {
                // A trader with no account could log on and have every order refused; an operator needs none.
                throw new IllegalArgumentException("add needs --accounts (comma-separated account numbers) for a " +
                    "user with the trader role, which is the default");
            }
            return arguments;
        }

        String option(final String option)
        {
            return options.get(option);
        }

        boolean flag(final String option)
        {
            return options.containsKey(option);
        }

        List<String> list(final String option, final List<String> otherwise)
        {
            return options.containsKey(option) ? List.of(options.get(option).split(",")) : otherwise;
        }
    }
}
