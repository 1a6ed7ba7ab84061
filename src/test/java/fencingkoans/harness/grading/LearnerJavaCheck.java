package fencingkoans.harness.grading;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles the course's given code together with a learner's Java and, before a single class file is written,
 * reads the learner's files the way the compiler does: their package, their classes, and every type, method and
 * field they refer to, resolved by the compiler (so a name hidden in a comment, a Unicode escape or a fully
 * qualified name is seen as what it is). What {@link LearnerJavaRules} does not allow is refused, with file, line
 * and reason. Nothing of the learner's runs here: annotation processing is off.
 */
final class LearnerJavaCheck {

    /** A learner file: its path as the submission names it, and where it is on disk. */
    record LearnerFile(String path, Path file) {

        /** The package its path promises: exercises/src/main/java/fencingkoans/store/X.java is fencingkoans.store. */
        String expectedPackage() {
            String inSources = path.substring(path.indexOf("src/main/java/") + "src/main/java/".length());
            return inSources.substring(0, Math.max(0, inSources.lastIndexOf('/'))).replace('/', '.');
        }

        String expectedClass() {
            String name = file.getFileName().toString();
            return name.substring(0, name.length() - ".java".length());
        }
    }

    /** Refusals (empty when the code may run) and compile errors (the code cannot run, it is graded 0). */
    record Outcome(List<String> refusals, List<String> compileErrors) {

        boolean compiled() {
            return refusals.isEmpty() && compileErrors.isEmpty();
        }
    }

    private static final int MAX_ERRORS = 10;

    private LearnerJavaCheck() {
    }

    /** Checks the learner's files and, when they may run, compiles them with {@code givenSources} into {@code out}. */
    static Outcome compile(List<LearnerFile> learnerFiles, Path givenSources, List<Path> libraries, Path out)
            throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("grading compiles the learner's code itself: run it on a JDK, not a JRE");
        }
        Files.createDirectories(out);
        List<File> sources = javaSources(givenSources);
        learnerFiles.forEach(learner -> sources.add(learner.file().toFile()));
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            List<String> options = List.of("--release", "17", "-encoding", "UTF-8", "-parameters", "-proc:none",
                    "-implicit:none", "-nowarn", "-d", out.toString(), "-classpath",
                    String.join(File.pathSeparator, libraries.stream().map(Path::toString).toList()));
            JavacTask task = (JavacTask) compiler.getTask(null, files, diagnostics, options, null,
                    files.getJavaFileObjectsFromFiles(sources));
            Iterable<? extends CompilationUnitTree> units = task.parse();
            task.analyze();
            List<String> errors = diagnostics.getDiagnostics().stream()
                    .filter(found -> found.getKind() == Diagnostic.Kind.ERROR)
                    .map(error -> describe(error, learnerFiles)).distinct().limit(MAX_ERRORS).toList();
            List<String> refusals = new ArrayList<>();
            Trees trees = Trees.instance(task);
            for (CompilationUnitTree unit : units) {
                learnerFileOf(unit, learnerFiles).ifPresent(learner -> refusals.addAll(
                        new Reader(learner, unit, trees, task.getElements()).refusals()));
            }
            if (!refusals.isEmpty()) {
                // What cannot compile because of a refused line says nothing new.
                return new Outcome(refusals, List.of());
            }
            if (!errors.isEmpty()) {
                return new Outcome(refusals, errors);
            }
            task.generate();
            List<String> late = diagnostics.getDiagnostics().stream()
                    .filter(found -> found.getKind() == Diagnostic.Kind.ERROR)
                    .map(error -> describe(error, learnerFiles)).toList();
            return new Outcome(List.of(), late);
        }
    }

    /**
     * Compiles the koans and their harness ({@code sources}, course code, not checked) against the learner's
     * compiled classes into {@code out}, with their resources; the compile errors, if the learner's code does not
     * offer what the koans use.
     */
    static List<String> compileKoans(Path sources, Path resources, Path classes, List<Path> libraries, Path out)
            throws IOException {
        List<Path> classpath = new ArrayList<>(List.of(classes));
        classpath.addAll(libraries);
        List<File> files = javaSources(sources);
        Files.createDirectories(out);
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager fileManager = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            boolean compiled = compiler.getTask(null, fileManager, diagnostics, List.of("--release", "17", "-encoding",
                    "UTF-8", "-parameters", "-proc:none", "-nowarn", "-d", out.toString(), "-classpath",
                    String.join(File.pathSeparator, classpath.stream().map(Path::toString).toList())), null,
                    fileManager.getJavaFileObjectsFromFiles(files)).call();
            if (!compiled) {
                return diagnostics.getDiagnostics().stream().filter(found -> found.getKind() == Diagnostic.Kind.ERROR)
                        .map(error -> "the koans cannot use your code: " + describe(error, List.of())).distinct()
                        .limit(MAX_ERRORS).toList();
            }
        }
        if (Files.isDirectory(resources)) {
            try (Stream<Path> walk = Files.walk(resources)) {
                for (Path resource : walk.filter(Files::isRegularFile).toList()) {
                    Path target = out.resolve(resources.relativize(resource).toString());
                    Files.createDirectories(target.getParent());
                    Files.copy(resource, target);
                }
            }
        }
        return List.of();
    }

    private static List<File> javaSources(Path folder) throws IOException {
        try (Stream<Path> walk = Files.walk(folder)) {
            return new ArrayList<>(walk.filter(path -> path.toString().endsWith(".java")).sorted().map(Path::toFile)
                    .toList());
        }
    }

    private static Optional<LearnerFile> learnerFileOf(CompilationUnitTree unit, List<LearnerFile> learnerFiles) {
        Path source = Path.of(unit.getSourceFile().toUri());
        return learnerFiles.stream().filter(learner -> learner.file().toAbsolutePath().normalize()
                .equals(source.toAbsolutePath().normalize())).findFirst();
    }

    private static String describe(Diagnostic<? extends JavaFileObject> error, List<LearnerFile> learnerFiles) {
        String where = error.getSource() == null ? "" : learnerFiles.stream()
                .filter(learner -> Path.of(error.getSource().toUri()).equals(learner.file().toAbsolutePath()
                        .normalize()))
                .map(LearnerFile::path).findFirst().orElse(Path.of(error.getSource().toUri()).getFileName().toString());
        return where + ":" + error.getLineNumber() + ": " + error.getMessage(Locale.ROOT).lines().findFirst().orElse("");
    }

    /** Reads one learner file as the compiler resolved it. */
    private static final class Reader extends TreePathScanner<Void, Void> {

        private final LearnerFile learner;
        private final CompilationUnitTree unit;
        private final Trees trees;
        private final Elements elements;
        private final SourcePositions positions;
        private final List<String> refusals = new ArrayList<>();

        Reader(LearnerFile learner, CompilationUnitTree unit, Trees trees, Elements elements) {
            this.learner = learner;
            this.unit = unit;
            this.trees = trees;
            this.elements = elements;
            this.positions = trees.getSourcePositions();
        }

        List<String> refusals() {
            String declared = unit.getPackageName() == null ? "" : unit.getPackageName().toString();
            if (!declared.equals(learner.expectedPackage())) {
                refuse(unit, "declares package '" + declared + "', but this file belongs to package "
                        + learner.expectedPackage() + " (the compiler reads the package line, not its comments)");
                return refusals;
            }
            for (Tree type : unit.getTypeDecls()) {
                if (type instanceof ClassTree declaredClass
                        && !declaredClass.getSimpleName().contentEquals(learner.expectedClass())) {
                    refuse(type, "declares a second top-level class, " + declaredClass.getSimpleName() + "; nest it "
                            + "inside " + learner.expectedClass() + " instead");
                }
            }
            scan(unit, null);
            return refusals;
        }

        @Override
        public Void visitIdentifier(IdentifierTree node, Void unused) {
            check(node);
            return super.visitIdentifier(node, unused);
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree node, Void unused) {
            check(node);
            return super.visitMemberSelect(node, unused);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree node, Void unused) {
            check(node);
            return super.visitMemberReference(node, unused);
        }

        @Override
        public Void visitNewClass(NewClassTree node, Void unused) {
            check(node);
            return super.visitNewClass(node, unused);
        }

        @Override
        public Void visitMethod(MethodTree node, Void unused) {
            if (node.getModifiers().getFlags().contains(Modifier.NATIVE)) {
                refuse(node, "declares a native method, which loads code outside Java");
            }
            if (node.getName().contentEquals("finalize") && node.getParameters().isEmpty()) {
                refuse(node, "overrides finalize, which runs at a moment no koan controls");
            }
            return super.visitMethod(node, unused);
        }

        private void check(Tree node) {
            Element used = trees.getElement(getCurrentPath());
            if (used == null || used.asType().getKind() == TypeKind.ERROR) {
                // Not resolved: the compiler reports it as an error of its own.
                return;
            }
            ElementKind kind = used.getKind();
            TypeElement owner;
            String member;
            if (kind.isClass() || kind.isInterface()) {
                owner = (TypeElement) used;
                member = null;
            } else if (kind == ElementKind.METHOD || kind == ElementKind.FIELD || kind == ElementKind.ENUM_CONSTANT
                    || kind == ElementKind.CONSTRUCTOR) {
                if (!(used.getEnclosingElement() instanceof TypeElement enclosing)) {
                    return;
                }
                owner = enclosing;
                member = kind == ElementKind.CONSTRUCTOR ? null : used.getSimpleName().toString();
            } else {
                return;
            }
            String ownerName = owner.getQualifiedName().toString();
            if (ownerName.isEmpty() || ownerName.equals("Array")) {
                return;
            }
            String packageName = elements.getPackageOf(owner).getQualifiedName().toString();
            List<String> parameters = used instanceof ExecutableElement executable ? executable.getParameters()
                    .stream().map(parameter -> parameter.asType().toString()).toList() : List.of();
            LearnerJavaRules.refusal(ownerName, packageName, member, parameters).ifPresent(reason -> refuse(node,
                    "uses " + simpleName(ownerName) + (member == null ? "" : "." + member) + ": " + reason));
        }

        private void refuse(Tree node, String reason) {
            // A type the compiler filled in (a "var") has no place of its own: the line is its declaration's.
            long start = positions.getStartPosition(unit, node);
            for (var path = getCurrentPath(); start == Diagnostic.NOPOS && path != null; path = path.getParentPath()) {
                start = positions.getStartPosition(unit, path.getLeaf());
            }
            long line = unit.getLineMap().getLineNumber(start);
            String refusal = learner.path() + ":" + line + ": " + reason;
            if (!refusals.contains(refusal)) {
                refusals.add(refusal);
            }
        }

        private static String simpleName(String qualified) {
            return qualified.substring(qualified.lastIndexOf('.') + 1);
        }
    }
}
