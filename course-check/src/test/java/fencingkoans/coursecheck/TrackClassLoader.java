package fencingkoans.coursecheck;

import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads the course's own classes ({@code fencingkoans.*}) from the given folders first, in order, and
 * everything else (JUnit, AssertJ, the SQLite driver) from the parent. Putting a track's classes first makes
 * the same compiled koans run against that track. The course's resources (the track's SQL) are looked up the same
 * way, for the same reason.
 */
final class TrackClassLoader extends URLClassLoader {

    private static final String COURSE_PACKAGE = "fencingkoans.";
    private static final String COURSE_RESOURCES = "fencingkoans/";

    TrackClassLoader(List<Path> folders, ClassLoader parent) {
        super(urls(folders), parent);
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
