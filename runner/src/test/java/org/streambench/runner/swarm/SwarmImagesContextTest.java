package org.streambench.runner.swarm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.UserError;

/** What {@code bench swarm images} hands {@code docker build}: an image's folder, or a staged copy with the files it includes. */
class SwarmImagesContextTest {

    @TempDir
    Path tmp;

    private SwarmImages images(Path folder) {
        return new SwarmImages(folder, tmp.resolve("work"), null, new PrintWriter(new StringWriter()));
    }

    private static Path image(Path folder, String name) throws Exception {
        Path dir = Files.createDirectories(folder.resolve(name));
        Files.writeString(dir.resolve("Dockerfile"), "FROM local/debian:bookworm\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(name + "-entrypoint.sh"), "#!/bin/bash\n", StandardCharsets.UTF_8);
        return dir;
    }

    @Test
    void anImageWithNothingToStageIsBuiltFromItsFolder() throws Exception {
        Path folder = tmp.resolve("images");
        Path plain = image(folder, "plain");
        assertEquals(plain, images(folder).context("plain"));
    }

    @Test
    void theFilesAnImageIncludesAreStagedAtTheTopOfItsContext() throws Exception {
        Path folder = tmp.resolve("images");
        Files.createDirectories(folder.resolve("common"));
        Files.writeString(folder.resolve("common/roles.sh"), "shared\n", StandardCharsets.UTF_8);
        Path first = image(folder, "first");
        Path second = image(folder, "second");
        Files.writeString(first.resolve(SwarmImages.INCLUDE_FILE), "common/roles.sh\n", StandardCharsets.UTF_8);
        Files.writeString(second.resolve(SwarmImages.INCLUDE_FILE), "\n  common/roles.sh  \n", StandardCharsets.UTF_8);

        for (String name : new String[] {"first", "second"}) {
            Path context = images(folder).context(name);
            assertTrue(context.startsWith(tmp.resolve("work")), context.toString());
            assertEquals("shared\n", Files.readString(context.resolve("roles.sh"), StandardCharsets.UTF_8));
            assertTrue(Files.isRegularFile(context.resolve("Dockerfile")));
            assertTrue(Files.isRegularFile(context.resolve(name + "-entrypoint.sh")));
        }
        assertTrue(Files.notExists(folder.resolve("first/roles.sh")), "the image's own folder is left as it was");
    }

    @Test
    void anIncludeThatIsNoFileUnderTheImagesIsRefusedByName() throws Exception {
        Path folder = tmp.resolve("images");
        Path missing = image(folder, "missing");
        Files.writeString(missing.resolve(SwarmImages.INCLUDE_FILE), "common/absent.sh\n", StandardCharsets.UTF_8);
        UserError absent = assertThrows(UserError.class, () -> images(folder).context("missing"));
        assertTrue(absent.getMessage().contains("common/absent.sh"), absent.getMessage());

        Files.writeString(tmp.resolve("outside.sh"), "secret\n", StandardCharsets.UTF_8);
        Files.writeString(missing.resolve(SwarmImages.INCLUDE_FILE), "../outside.sh\n", StandardCharsets.UTF_8);
        UserError outside = assertThrows(UserError.class, () -> images(folder).context("missing"));
        assertTrue(outside.getMessage().contains("../outside.sh"), outside.getMessage());
    }

    @Test
    void everyIncludeOfTheSuitesImagesNamesAFile() throws Exception {
        Path folder = Path.of("..", "docker-swarm", "images").toAbsolutePath().normalize();
        int includes = 0;
        for (String name : images(folder).names()) {
            Path include = folder.resolve(name).resolve(SwarmImages.INCLUDE_FILE);
            if (Files.isRegularFile(include)) {
                for (String line : Files.readAllLines(include, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        assertTrue(Files.isRegularFile(folder.resolve(line.strip())), name + " includes " + line);
                        includes++;
                    }
                }
            }
        }
        assertTrue(includes >= 2, "hadoop and hbase share their HDFS roles: " + includes);
    }

    /**
     * The images that run on Debian's JRE install it with one and the same instruction right after
     * their base image, so Docker's build cache builds that layer once for all of them (about 10 s
     * and one download each otherwise).
     */
    @Test
    void theSuitesImagesOnTheJreShareOneJreLayer() throws Exception {
        Path folder = Path.of("..", "docker-swarm", "images").toAbsolutePath().normalize();
        Map<String, List<String>> firstTwo = new TreeMap<>();
        for (String name : images(folder).names()) {
            List<String> instructions = instructions(folder.resolve(name).resolve("Dockerfile"));
            if (instructions.stream().anyMatch(i -> i.contains("openjdk-17-jre-headless"))) {
                firstTwo.put(name, instructions.subList(0, 2));
            }
        }
        assertEquals(Set.of("cassandra", "hadoop", "hazelcast", "hbase"), firstTwo.keySet());
        assertEquals(1, Set.copyOf(firstTwo.values()).size(), "one base and one JRE layer: " + firstTwo);
        assertTrue(firstTwo.get("hbase").get(1).contains("openjdk-17-jre-headless"), firstTwo.toString());
    }

    /** A Dockerfile's instructions, each on one line: comments left out, continued lines joined. */
    private static List<String> instructions(Path dockerfile) throws Exception {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(dockerfile, StandardCharsets.UTF_8)) {
            String stripped = line.strip();
            if (stripped.startsWith("#") || stripped.isEmpty()) {
                continue;
            }
            boolean continued = stripped.endsWith("\\");
            current.append(
                            continued
                                    ? stripped.substring(0, stripped.length() - 1)
                                            .strip()
                                    : stripped)
                    .append(' ');
            if (!continued) {
                instructions.add(current.toString().strip());
                current.setLength(0);
            }
        }
        return instructions;
    }
}
