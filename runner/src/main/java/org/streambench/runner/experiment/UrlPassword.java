package org.streambench.runner.experiment;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A password written into {@code --db-url} ({@code mongodb://user:secret@host}, a JDBC URL's
 * {@code password=secret} parameter), taken out of it: the URL is recorded in every result file and
 * spec, the password only travels in the job's environment, like {@code --db-password}.
 *
 * @param url      the URL without its password
 * @param password the password it held, or null
 */
record UrlPassword(String url, String password) {

    /** scheme://user:password@rest, the user and the password without '/', '@' or ':' */
    private static final Pattern USER_INFO = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*://)([^/@:]*):([^/@]*)@(.*)$");

    /** A password parameter of a URL's query (after ?, & or ;). */
    private static final Pattern PARAMETER = Pattern.compile("(?i)^password=(.*)$");

    static UrlPassword split(String url) {
        Matcher userInfo = USER_INFO.matcher(url);
        if (userInfo.matches()) {
            return new UrlPassword(
                    userInfo.group(1) + userInfo.group(2) + "@" + userInfo.group(4), decode(userInfo.group(3)));
        }
        int query = url.indexOf('?');
        if (query < 0) {
            return new UrlPassword(url, null);
        }
        String password = null;
        List<String> kept = new ArrayList<>();
        for (String parameter : url.substring(query + 1).split("[&;]")) {
            Matcher secret = PARAMETER.matcher(parameter);
            if (secret.matches()) {
                password = decode(secret.group(1));
            } else if (!parameter.isEmpty()) {
                kept.add(parameter);
            }
        }
        if (password == null) {
            return new UrlPassword(url, null);
        }
        String base = url.substring(0, query);
        return new UrlPassword(kept.isEmpty() ? base : base + "?" + String.join("&", kept), password);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
