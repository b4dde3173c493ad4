package io.capstream.cli.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module rules of {@code docs/architecture.md} ("Modules"), checked on the compiled main classes of
 * every capstream module (cli sees them all): schemas depends on no other capstream module;
 * load-generator and aggregator depend only on schemas (never on each other, never on cli); nothing
 * depends on cli; and within each module the packages one level below the module's root package
 * ({@code io.capstream.<module>.<package>..}) are free of cycles.
 *
 * <p>Only capstream's own production classes are imported, once for the whole class: test classes
 * (target/test-classes) and test-jars ({@code *-tests.jar}, e.g. the schemas test-jar) are left out;
 * third-party jars are never scanned because only {@code io.capstream} is imported, and classes they
 * reference are not resolved from the classpath (the rules only look at capstream's own classes, and
 * resolving Kafka, Vert.x and Avro classes would multiply the import time).
 */
class ModuleRulesTest {
    private static final String SCHEMAS = "io.capstream.schemas..";
    private static final String LOADGEN = "io.capstream.loadgen..";
    private static final String AGGREGATOR = "io.capstream.aggregator..";
    private static final String CLI = "io.capstream.cli..";

    private static JavaClasses classes;

    /** Leaves out test-jars such as {@code capstream-schemas-...-tests.jar}. */
    static final class DoNotIncludeTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar");
        }
    }

    @BeforeAll
    static void importCapstream() {
        ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false);
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(new DoNotIncludeTestJars())
                .importPackages("io.capstream");
    }

    @AfterAll
    static void resetArchUnit() {
        ArchConfiguration.get().reset();
    }

    @Test
    void everyModuleIsImported() {
        for (String module : new String[] {"io.capstream.schemas", "io.capstream.loadgen", "io.capstream.aggregator", "io.capstream.cli"}) {
            long count = classes.stream().filter(c -> c.getPackageName().startsWith(module)).count();
            assertTrue(count > 10, module + ": " + count + " classes imported");
        }
        assertTrue(classes.stream().noneMatch(c -> c.getSimpleName().endsWith("Test") || c.getSimpleName().endsWith("IT")),
                "no test classes imported");
    }

    @Test
    void schemasDependsOnNoOtherModule() {
        noClasses().that().resideInAPackage(SCHEMAS)
                .should().dependOnClassesThat().resideInAnyPackage(LOADGEN, AGGREGATOR, CLI)
                .because("schemas is the contract every module shares (docs/architecture.md, Modules)")
                .check(classes);
    }

    @Test
    void loadGeneratorDependsOnlyOnSchemas() {
        noClasses().that().resideInAPackage(LOADGEN)
                .should().dependOnClassesThat().resideInAnyPackage(AGGREGATOR, CLI)
                .because("the load generator talks to the aggregator only through topics (docs/architecture.md, Modules)")
                .check(classes);
    }

    @Test
    void aggregatorDependsOnlyOnSchemas() {
        noClasses().that().resideInAPackage(AGGREGATOR)
                .should().dependOnClassesThat().resideInAnyPackage(LOADGEN, CLI)
                .because("the aggregator talks to the load generator only through topics (docs/architecture.md, Modules)")
                .check(classes);
    }

    @Test
    void nothingDependsOnCli() {
        noClasses().that().resideOutsideOfPackage(CLI)
                .should().dependOnClassesThat().resideInAPackage(CLI)
                .because("cli is the wiring on top of every other module (docs/architecture.md, Modules)")
                .check(classes);
    }

    @Test
    void packagesWithinEachModuleAreFreeOfCycles() {
        slices().matching("io.capstream.(*).(*)..").namingSlices("$1.$2")
                .should().beFreeOfCycles()
                .check(classes);
    }
}
