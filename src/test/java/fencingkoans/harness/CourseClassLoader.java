package fencingkoans.harness;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/**
 * Loads the course's own classes and resources ({@code fencingkoans.*}) from the given folders first, in order,
 * and everything else (JUnit, AssertJ, the SQLite driver with its native library) from the parent. The same
 * compiled koans then run against whichever track's classes come first, as often as needed in one JVM.
 * A loader may keep only some course classes as its own and leave the others to its parent, itself a loader of
 * this kind: watch mode loads the given code once and the track with the koans on every save.
 */
public final class CourseClassLoader extends URLClassLoader {

    private static final String COURSE_PACKAGE = "fencingkoans.";
    private static final String COURSE_RESOURCES = "fencingkoans/";

    private final Predicate<String> ownClass;

    public CourseClassLoader(String name, List<Path> folders, ClassLoader parent) {
        this(name, folders, parent, className -> true);
    }

    /** Loads those course classes that {@code ownClass} accepts itself; the other course classes come from the parent. */
    public CourseClassLoader(String name, List<Path> folders, ClassLoader parent, Predicate<String> ownClass) {
        super(name, urls(folders), parent);
        this.ownClass = ownClass;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(COURSE_PACKAGE) || !ownClass.test(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = findClass(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    public URL getResource(String name) {
        URL own = name.startsWith(COURSE_RESOURCES) ? findResource(name) : null;
        return own != null ? own : super.getResource(name);
    }

    private static URL[] urls(List<Path> folders) {
        URL[] urls = new URL[folders.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = folders.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException(folders.get(i).toString(), e);
            }
        }
        return urls;
    }
}
