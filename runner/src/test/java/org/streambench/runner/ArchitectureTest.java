package org.streambench.runner;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.core.importer.Locations;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.streambench.db.Databases;
import org.streambench.operators.engine.EngineProvider;
import org.streambench.runner.experiment.Engines;

/**
 * The module boundaries, as rules on the compiled classes of every module (the engine adapters
 * are read from their modules' build output: their classpaths never meet the runner's).
 */
class ArchitectureTest {

    /** The engines' packages, from the registry: each engine's provider lives in its engine's package. */
    private static final String[] ENGINES = Engines.all().stream()
            .map(engine -> engine.getClass().getPackageName() + "..")
            .toArray(String[]::new);
    /** The connectors' packages, from the registry, and the JDBC code they share. */
    private static final String[] CONNECTOR_MODULES = Stream.concat(
                    Databases.inOrder().stream()
                            .map(provider -> provider.getClass().getPackageName())
                            .filter(pkg -> !pkg.equals("org.streambench.db"))
                            .map(pkg -> pkg + ".."),
                    Stream.of("org.streambench.db.jdbc..", "org.streambench.db.kv.."))
            .toArray(String[]::new);

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModule() throws IOException {
        Set<Location> locations = new HashSet<>(Locations.ofPackage("org.streambench"));
        List<String> modules = new ArrayList<>(
                Engines.all().stream().map(EngineProvider::module).toList());
        try (Stream<Path> databases = Files.list(Path.of("..", "db-connectors"))) {
            databases
                    .filter(folder -> Files.isDirectory(folder.resolve("server")))
                    .forEach(folder -> modules.add("db-connectors/" + folder.getFileName() + "/server"));
        }
        for (String module : modules) {
            Path compiled =
                    Path.of("..", module, "target", "classes").toAbsolutePath().normalize();
            assertTrue(Files.isDirectory(compiled), compiled + " is missing: build the project first (mvn package)");
            locations.add(Location.of(compiled));
        }
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importLocations(locations);
        for (String engine : ENGINES) {
            assertTrue(classes.containPackage(engine.replace("..", "")), "no classes found in " + engine);
        }
        for (String module : new String[] {
            "org.streambench.db.cassandra",
            "org.streambench.operators",
            "org.streambench.generator",
            "org.streambench.report",
            "org.streambench.model",
            "org.streambench.servers",
            "org.streambench.servers.postgresql",
            "org.streambench.servers.mongodb",
            "org.streambench.local"
        }) {
            assertTrue(classes.containPackage(module), "no classes found in " + module);
        }
    }

    @Test
    void connectorsKnowOnlyTheirApiAndTheRecords() {
        check(noClasses()
                .that()
                .resideInAPackage("org.streambench.db..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(
                        ENGINES,
                        "org.streambench.operators..",
                        "org.streambench.runner..",
                        "org.streambench.report..",
                        "org.streambench.servers..",
                        "org.streambench.local..")));
    }

    /** Connector modules run their contract test against a server of their own, so the servers know no more than the connector API. */
    @Test
    void theLocalServersKnowOnlyTheConnectorApi() {
        check(noClasses()
                .that()
                .resideInAnyPackage("org.streambench.servers..", "org.streambench.local..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(
                        ENGINES,
                        CONNECTOR_MODULES,
                        "org.streambench.operators..",
                        "org.streambench.model..",
                        "org.streambench.report..",
                        "org.streambench.runner..")));
    }

    /** Each database's local server lives in its own folder and knows no other's. */
    @Test
    void localServersDoNotUseEachOther() {
        check(slices().matching("org.streambench.servers.(*)..").should().notDependOnEachOther());
    }

    @Test
    void connectorModulesDoNotUseEachOtherExceptTheSharedBases() {
        check(slices().matching("org.streambench.db.(*)..")
                .should()
                .notDependOnEachOther()
                .ignoreDependency(
                        DescribedPredicate.alwaysTrue(),
                        JavaClass.Predicates.resideInAnyPackage(
                                "org.streambench.db.jdbc..", "org.streambench.db.kv..")));
    }

    @Test
    void enginesUseOnlyTheOperatorsTheGeneratorAndTheConnectorApi() {
        check(noClasses()
                .that()
                .resideInAnyPackage(ENGINES)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(
                        CONNECTOR_MODULES,
                        "org.streambench.runner..",
                        "org.streambench.report..",
                        "org.streambench.servers..")));
        for (String engine : ENGINES) {
            check(noClasses()
                    .that()
                    .resideInAPackage(engine)
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(Stream.of(ENGINES)
                            .filter(other -> !other.equals(engine))
                            .toArray(String[]::new)));
        }
    }

    /**
     * The runner loads an engine's provider without the engine's classpath, so the provider knows
     * only the operators (the engine SPI among them), the generator and the JDK.
     */
    @Test
    void engineProvidersKnowOnlyTheOperatorsAndTheJdk() {
        check(classes()
                .that()
                .implement(EngineProvider.class)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "org.streambench.operators..", "org.streambench.generator.."));
    }

    @Test
    void theGeneratorAndTheOperatorsStayFreeOfEnginesConnectorsAndTheRunner() {
        check(noClasses()
                .that()
                .resideInAPackage("org.streambench.generator..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(
                        ENGINES,
                        "org.streambench.operators..",
                        "org.streambench.db..",
                        "org.streambench.runner..",
                        "org.streambench.report..")));
        check(noClasses()
                .that()
                .resideInAPackage("org.streambench.operators..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        concat(ENGINES, CONNECTOR_MODULES, "org.streambench.runner..", "org.streambench.report..")));
    }

    @Test
    void theReportReadsResultFilesOnly() {
        check(noClasses()
                .that()
                .resideInAPackage("org.streambench.report..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(
                        ENGINES,
                        CONNECTOR_MODULES,
                        "org.streambench.db",
                        "org.streambench.generator..",
                        "org.streambench.operators..",
                        "org.streambench.runner..")));
    }

    /** The result model is shared by the runner (writes) and the report (reads): it knows neither, nor anything else of ours. */
    @Test
    void theResultModelStandsAlone() {
        check(noClasses()
                .that()
                .resideInAPackage("org.streambench.model..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(
                        ENGINES,
                        CONNECTOR_MODULES,
                        "org.streambench.db",
                        "org.streambench.generator..",
                        "org.streambench.operators..",
                        "org.streambench.report..",
                        "org.streambench.runner..")));
    }

    @Test
    void nothingDependsOnTheRunner() {
        check(noClasses()
                .that()
                .resideOutsideOfPackage("org.streambench.runner..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.streambench.runner.."));
    }

    @Test
    void theRunnersPackagesDependDownwardsOnly() {
        // cli uses everything; an experiment knows nothing of the commands; results are plain data
        check(noClasses()
                .that()
                .resideInAPackage("org.streambench.runner..")
                .and()
                .resideOutsideOfPackage("org.streambench.runner.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.streambench.runner.cli.."));
        check(noClasses()
                .that()
                .resideInAnyPackage(
                        "org.streambench.runner.results..",
                        "org.streambench.runner.monitor..",
                        "org.streambench.runner.swarm..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.streambench.runner.experiment.."));
    }

    private static void check(ArchRule rule) {
        rule.check(classes);
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = new String[first.length + more.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }

    private static String[] concat(String[] first, String[] second, String... more) {
        return concat(concat(first, second), more);
    }
}
