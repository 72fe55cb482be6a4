package org.streambench.runner;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module boundaries, as rules on the compiled classes of every module (the engine adapters
 * are read from their modules' build output: their classpaths never meet the runner's).
 */
class ArchitectureTest {

    private static final String[] ENGINES = {
        "org.streambench.flink..", "org.streambench.spark..", "org.streambench.apex.."
    };
    private static final String[] CONNECTOR_MODULES = {
        "org.streambench.db.postgresql..",
        "org.streambench.db.mariadb..",
        "org.streambench.db.cassandra..",
        "org.streambench.db.hbase..",
        "org.streambench.db.mongodb..",
        "org.streambench.db.jdbc.."
    };

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModule() {
        Set<Location> locations = new HashSet<>(Locations.ofPackage("org.streambench"));
        for (String module : new String[] {"flink-job", "spark-job", "apex-app", "local-servers/mongodb"}) {
            Path compiled =
                    Path.of("..", module, "target", "classes").toAbsolutePath().normalize();
            assertTrue(Files.isDirectory(compiled), compiled + " is missing: build the project first (mvn package)");
            locations.add(Location.of(compiled));
        }
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importLocations(locations);
        for (String module : new String[] {
            "org.streambench.flink",
            "org.streambench.spark",
            "org.streambench.apex",
            "org.streambench.db.cassandra",
            "org.streambench.operators",
            "org.streambench.generator",
            "org.streambench.report",
            "org.streambench.model",
            "org.streambench.servers",
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

    @Test
    void connectorModulesDoNotUseEachOtherExceptTheSharedJdbcCode() {
        check(slices().matching("org.streambench.db.(*)..")
                .should()
                .notDependOnEachOther()
                .ignoreDependency(
                        DescribedPredicate.alwaysTrue(),
                        JavaClass.Predicates.resideInAPackage("org.streambench.db.jdbc..")));
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
        check(slices().matching("org.streambench.(flink|spark|apex)..").should().notDependOnEachOther());
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
