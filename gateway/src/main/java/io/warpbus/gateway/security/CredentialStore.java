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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.warpbus.gateway.session.User;
import io.warpbus.gateway.session.UserDirectory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway's credentials, read once at start from a JSON file that only its owner may read (the gateway refuses
 * a file readable by group or others). Passwords are stored as bcrypt hashes with Spring Security's encoder id
 * ({@code {bcrypt}$2a$10$...}), nothing else: a plain-text {@code {noop}} password or another encoder's hash is
 * refused at load (argon2 would need Bouncy Castle, which the gateway does not ship). API keys are stored as an id
 * and the base64 secret the client signs logons with. Nothing secret is ever logged: errors name the user and the
 * field, never the value.
 * <pre>
 * { "users": [ { "name": "alice", "password": "{bcrypt}$2a$10$...", "accounts": [101, 102],
 *                "roles": ["trader"], "marketData": ["*"], "ordersPerSecond": 50, "orderBurst": 100,
 *                "apiKeys": [ { "id": "AK-ALICE-1", "secret": "base64, 32 bytes" } ] } ] }
 * </pre>
 */
public final class CredentialStore
{
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@-]{1,64}");
    static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{8,64}");
    static final Set<String> ROLES = Set.of("trader", "admin", "viewer");
    static final String BCRYPT_ID = "{bcrypt}";
    /** A bcrypt hash with its id: version 2a, 2b or 2y, a cost of 4 to 31, 22 characters of salt, 31 of hash. */
    static final Pattern BCRYPT = Pattern.compile(
        "\\{bcrypt}\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");
    private static final Set<String> OTHER_ENCODER_IDS = Set.of("{argon2}", "{argon2@SpringSecurity_v5_8}",
        "{pbkdf2}", "{pbkdf2@SpringSecurity_v5_8}", "{scrypt}", "{scrypt@SpringSecurity_v5_8}", "{sha256}",
        "{SHA-1}", "{SHA-256}", "{MD4}", "{MD5}", "{ldap}");
    private static final Set<String> USER_FIELDS = Set.of("name", "password", "accounts", "roles", "marketData",
        "ordersPerSecond", "orderBurst", "apiKeys");

    private final Path file;
    private final UserDirectory directory;
    private final Map<String, String> passwordHashes;
    private final Map<String, ApiKey> apiKeys;

    /**
     * An API key: the user it belongs to and its secret.
     *
     * @param id        the key id clients send.
     * @param userIndex its user.
     * @param secret    the HMAC key.
     */
    public record ApiKey(String id, int userIndex, byte[] secret)
    {
        @Override
        public String toString()
        {
            return "ApiKey[" + id + "]";
        }
    }

    private CredentialStore(final Path file, final UserDirectory directory, final Map<String, String> passwordHashes,
        final Map<String, ApiKey> apiKeys)
    {
        this.file = file;
        this.directory = directory;
        this.passwordHashes = Map.copyOf(passwordHashes);
        this.apiKeys = Map.copyOf(apiKeys);
    }

    /**
     * Read and check a credentials file.
     *
     * @param file                 the file.
     * @param checkPermissions     refuse a file that group or others may read.
     * @param defaultOrdersPerSec  a user's order rate when the file gives none.
     * @param defaultOrderBurst    a user's order burst when the file gives none.
     * @return the store.
     * @throws IllegalArgumentException naming the file, the user and the field that is wrong.
     */
    public static CredentialStore load(final Path file, final boolean checkPermissions,
        final long defaultOrdersPerSec, final long defaultOrderBurst)
    {
        if (!Files.isRegularFile(file))
        {
            throw new IllegalArgumentException("credentials file " + file + " does not exist or is not a file");
        }
        if (checkPermissions)
        {
            checkPermissions(file);
        }
        final JsonNode root;
        try
        {
            root = JsonMapper.builder().build().readTree(Files.readString(file));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read credentials file " + file, ex);
        }
        catch (final JacksonException ex)
        {
            throw new IllegalArgumentException("credentials file " + file + " is not valid JSON: " +
                ex.getOriginalMessage());
        }
        final JsonNode users = root.path("users");
        if (!root.isObject() || !users.isArray())
        {
            throw new IllegalArgumentException("credentials file " + file + " must hold an object with a \"users\" " +
                "array");
        }
        final List<User> list = new ArrayList<>();
        final Map<String, String> hashes = new HashMap<>();
        final Map<String, ApiKey> keys = new HashMap<>();
        for (final JsonNode node : users)
        {
            final int index = list.size();
            final User user = parseUser(file, node, index, defaultOrdersPerSec, defaultOrderBurst);
            if (hashes.containsKey(user.name()))
            {
                throw new IllegalArgumentException(where(file, user.name()) + ": user appears twice");
            }
            hashes.put(user.name(), text(file, node, "password", user.name(), ""));
            for (final JsonNode key : node.path("apiKeys"))
            {
                final ApiKey apiKey = parseKey(file, key, index, user.name());
                if (null != keys.put(apiKey.id(), apiKey))
                {
                    throw new IllegalArgumentException(where(file, user.name()) + ": API key id " + apiKey.id() +
                        " is used twice");
                }
            }
            if (hashes.get(user.name()).isEmpty() && 0 == node.path("apiKeys").size())
            {
                throw new IllegalArgumentException(where(file, user.name()) + ": neither a password nor an API key");
            }
            list.add(user);
        }
        return new CredentialStore(file, new UserDirectory(list), hashes, keys);
    }

    /**
     * The users.
     *
     * @return the directory.
     */
    public UserDirectory directory()
    {
        return directory;
    }

    /**
     * A user's stored password hash.
     *
     * @param user the user name.
     * @return the hash with its encoder id, or null when the user has no password.
     */
    public String passwordHash(final String user)
    {
        final String hash = passwordHashes.get(user);
        return null == hash || hash.isEmpty() ? null : hash;
    }

    /**
     * An API key by id.
     *
     * @param id the key id.
     * @return the key, or null.
     */
    public ApiKey apiKey(final String id)
    {
        return apiKeys.get(id);
    }

    /**
     * The file read.
     *
     * @return its path.
     */
    public Path file()
    {
        return file;
    }

    private static void checkPermissions(final Path file)
    {
        try
        {
            final Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            if (permissions.contains(PosixFilePermission.GROUP_READ) ||
                permissions.contains(PosixFilePermission.OTHERS_READ) ||
                permissions.contains(PosixFilePermission.GROUP_WRITE) ||
                permissions.contains(PosixFilePermission.OTHERS_WRITE))
            {
                throw new IllegalArgumentException("credentials file " + file + " may be read or written by group " +
                    "or others: chmod 600 " + file);
            }
        }
        catch (final UnsupportedOperationException ex)
        {
            // Not a POSIX file system: nothing to check.
            return;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read the permissions of credentials file " + file, ex);
        }
    }

    private static User parseUser(final Path file, final JsonNode node, final int index,
        final long defaultOrdersPerSec, final long defaultOrderBurst)
    {
        if (!node.isObject())
        {
            throw new IllegalArgumentException("credentials file " + file + ": user " + (index + 1) +
                " is not an object");
        }
        final String name = text(file, node, "name", "#" + (index + 1), null);
        if (!NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("credentials file " + file + ": user " + (index + 1) +
                ": name must be 1 to 64 of A-Z a-z 0-9 . _ @ -");
        }
        for (final String field : node.propertyNames())
        {
            if (!USER_FIELDS.contains(field))
            {
                throw new IllegalArgumentException(where(file, name) + ": unknown field '" + field + "'; known: " +
                    USER_FIELDS);
            }
        }
        final String problem = passwordProblem(text(file, node, "password", name, ""));
        if (null != problem)
        {
            throw new IllegalArgumentException(where(file, name) + ": password " + problem);
        }
        final JsonNode accountsNode = node.path("accounts");
        final long[] accounts = new long[accountsNode.size()];
        for (int i = 0; i < accounts.length; i++)
        {
            final JsonNode account = accountsNode.path(i);
            if (!account.isIntegralNumber() || !account.canConvertToLong() || account.longValue() < 0 ||
                account.longValue() > 0xFFFF_FFFFL)
            {
                throw new IllegalArgumentException(where(file, name) + ": accounts must be integers from 0 to " +
                    0xFFFF_FFFFL);
            }
            accounts[i] = account.longValue();
        }
        final Set<String> roles = strings(file, node, "roles", name, Set.of("trader"));
        for (final String role : roles)
        {
            if (!ROLES.contains(role))
            {
                throw new IllegalArgumentException(where(file, name) + ": unknown role '" + role + "'; known: " +
                    ROLES);
            }
        }
        final Set<String> marketData = strings(file, node, "marketData", name, Set.of("*"));
        final long rate = positive(file, node, "ordersPerSecond", name, defaultOrdersPerSec);
        final long burst = positive(file, node, "orderBurst", name, defaultOrderBurst);
        return new User(index, name, accounts, roles, marketData, rate, burst);
    }

    /**
     * What is wrong with a stored password, without a word of its value: only a bcrypt hash with its encoder id is
     * accepted. The id is named when it is one of Spring Security's, as it is no secret then; anything else may be
     * the password itself.
     *
     * @param password the stored value, empty when the user has none.
     * @return the problem, or null when the value is a bcrypt hash or empty.
     */
    static String passwordProblem(final String password)
    {
        if (password.isEmpty() || BCRYPT.matcher(password).matches())
        {
            return null;
        }
        if (password.startsWith(BCRYPT_ID))
        {
            return "is not a well-formed bcrypt hash: " + BCRYPT_ID + " then $2a$, $2b$ or $2y$, a cost of 04 " +
                "to 31, $ and 53 characters of ./A-Z a-z 0-9";
        }
        final int end = password.indexOf('}');
        final String id = password.startsWith("{") && end > 0 ? password.substring(0, end + 1) : null;
        if ("{noop}".equals(id))
        {
            return "is stored in plain text ({noop}): store its bcrypt hash, {bcrypt}$2a$10$..., as " +
                "./warpbus gateway-user writes it";
        }
        if (null != id && OTHER_ENCODER_IDS.contains(id))
        {
            return "is hashed with " + id + ": the gateway accepts only bcrypt, {bcrypt}$2a$10$...";
        }
        return "must be a bcrypt hash with its encoder id, {bcrypt}$2a$10$..., never the password itself";
    }

    private static ApiKey parseKey(final Path file, final JsonNode key, final int userIndex, final String user)
    {
        final String id = text(file, key, "id", user, null);
        if (!KEY_ID.matcher(id).matches())
        {
            throw new IllegalArgumentException(where(file, user) + ": API key id must be 8 to 64 of A-Z a-z 0-9 . _ -");
        }
        final byte[] secret;
        try
        {
            secret = Base64.getDecoder().decode(text(file, key, "secret", user, null));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException(where(file, user) + ": API key " + id + ": secret is not base64");
        }
        if (secret.length < 16)
        {
            throw new IllegalArgumentException(where(file, user) + ": API key " + id +
                ": secret must be at least 16 bytes");
        }
        return new ApiKey(id, userIndex, secret);
    }

    private static String text(final Path file, final JsonNode node, final String field, final String user,
        final String defaultValue)
    {
        final JsonNode value = node.path(field);
        if (value.isMissingNode() && null != defaultValue)
        {
            return defaultValue;
        }
        if (!value.isString())
        {
            throw new IllegalArgumentException(where(file, user) + ": field '" + field + "' must be a string");
        }
        return value.stringValue();
    }

    private static Set<String> strings(final Path file, final JsonNode node, final String field, final String user,
        final Set<String> defaultValue)
    {
        final JsonNode value = node.path(field);
        if (value.isMissingNode())
        {
            return defaultValue;
        }
        if (!value.isArray())
        {
            throw new IllegalArgumentException(where(file, user) + ": field '" + field + "' must be an array");
        }
        final Set<String> values = new LinkedHashSet<>();
        for (final JsonNode element : value)
        {
            if (!element.isString())
            {
                throw new IllegalArgumentException(where(file, user) + ": field '" + field + "' must hold strings");
            }
            values.add(element.stringValue());
        }
        return Collections.unmodifiableSet(values);
    }

    private static long positive(final Path file, final JsonNode node, final String field, final String user,
        final long defaultValue)
    {
        final JsonNode value = node.path(field);
        if (value.isMissingNode())
        {
            return defaultValue;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() <= 0)
        {
            throw new IllegalArgumentException(where(file, user) + ": field '" + field +
                "' must be a positive integer");
        }
        return value.longValue();
    }

    private static String where(final Path file, final String user)
    {
        return "credentials file " + file + ": user " + user;
    }
}
