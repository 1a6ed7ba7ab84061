package fencingkoans.harness;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads the course's own classes and resources ({@code fencingkoans.*}) from the given folders first, in order,
 * and everything else (JUnit, AssertJ, the SQLite driver with its native library) from the parent. The same
 * compiled koans then run against whichever track's classes come first, as often as needed in one JVM.
 */
public final class CourseClassLoader extends URLClassLoader {

    private static final String COURSE_PACKAGE = "fencingkoans.";
    private static final String COURSE_RESOURCES = "fencingkoans/";

    public CourseClassLoader(String name, List<Path> folders, ClassLoader parent) {
        super(name, urls(folders), parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(COURSE_PACKAGE)) {
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
