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

import io.warpbus.gateway.session.User;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.web.SecurityFilterChain;

/**
 * HTTP security: the WebSocket endpoint is open (clients authenticate in the protocol's logon), so are health and
 * the Prometheus scrape; the operators' REST API and every other actuator endpoint need the {@code admin} role, with
 * HTTP Basic against the same credentials as logons. Stateless: no HTTP session, no cookie, so no CSRF token to
 * carry.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration
{
    @Bean
    SecurityFilterChain gatewaySecurity(final HttpSecurity http) throws Exception
    {
        http.authorizeHttpRequests((requests) -> requests
                .requestMatchers("/ws", "/actuator/health", "/actuator/health/**", "/actuator/prometheus").permitAll()
                .requestMatchers("/", "/index.html", "/assets/**", "/favicon.ico", "/error").permitAll()
                .requestMatchers("/api/admin/**", "/actuator/**").hasRole("ADMIN")
                .anyRequest().denyAll())
            .httpBasic(Customizer.withDefaults())
            .csrf((csrf) -> csrf.disable())
            .sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
        return http.build();
    }

    @Bean
    UserDetailsService gatewayUsers(final CredentialStore credentials)
    {
        return (name) ->
        {
            final User user = credentials.directory().get(name);
            final String hash = null == user ? null : credentials.passwordHash(name);
            if (null == hash)
            {
                throw new UsernameNotFoundException("no user with a password named " + name);
            }
            return org.springframework.security.core.userdetails.User.withUsername(name)
                .password(hash)
                .roles(user.roles().stream().map(String::toUpperCase).toArray(String[]::new))
                .disabled(user.isBlocked())
                .build();
        };
    }
}
