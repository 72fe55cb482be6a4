package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A password in --db-url is taken out of the URL that every result file records. */
class UrlPasswordTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "NONE",
            value = {
                "jdbc:postgresql://db:5432/x?user=postgres&password=s3cret|jdbc:postgresql://db:5432/x?user=postgres|s3cret",
                "jdbc:postgresql://db/x?password=s3cret&ssl=true|jdbc:postgresql://db/x?ssl=true|s3cret",
                "jdbc:mariadb://db/x?password=p%40ss|jdbc:mariadb://db/x|p@ss",
                "jdbc:postgresql://db/x?user=a;password=b|jdbc:postgresql://db/x?user=a|b",
                "mongodb://admin:s3cret@db1:27017,db2:27017/streambench?authSource=admin|mongodb://admin@db1:27017,db2:27017/streambench?authSource=admin|s3cret",
                "mongodb://db:27017/streambench|mongodb://db:27017/streambench|NONE",
                "jdbc:postgresql://db/x?user=postgres|jdbc:postgresql://db/x?user=postgres|NONE",
                "127.0.0.1:9042|127.0.0.1:9042|NONE",
            })
    void takesThePasswordOutOfTheUrl(String given, String url, String password) {
        assertEquals(new UrlPassword(url, password), UrlPassword.split(given));
    }
}
