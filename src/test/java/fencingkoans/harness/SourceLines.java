package fencingkoans.harness;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * Where each method of a compiled class starts in its source file, read from the class file's line-number table,
 * and which file that is. Reflection lists methods in no promised order, but javac records every line, so koans
 * sort into the order they are written in, also across the types written in one lesson's file.
 *
 * @param file the source file's name, for example "Lesson1StaleAuthorityKoans.java"
 * @param firstLines the first source line of the code of each method, by method name
 */
record SourceLines(String file, Map<String, Integer> firstLines) {

    static SourceLines of(Class<?> type) {
        String resource = type.getName().replace('.', '/') + ".class";
        ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : ClassLoader.getSystemClassLoader();
        try (InputStream bytes = loader.getResourceAsStream(resource)) {
            if (bytes == null) {
                throw new IllegalStateException("cannot read " + resource + " to find the order of its koans");
            }
            return read(new DataInputStream(new ByteArrayInputStream(bytes.readAllBytes())));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + " to find the order of its koans", e);
        }
    }

    private static SourceLines read(DataInputStream in) throws IOException {
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.skipBytes(4);
        String[] utf8 = readConstantPool(in);
        in.skipBytes(6);
        in.skipBytes(2 * in.readUnsignedShort());
        int fields = in.readUnsignedShort();
        for (int i = 0; i < fields; i++) {
            in.skipBytes(6);
            skipAttributes(in);
        }
        Map<String, Integer> firstLines = new HashMap<>();
        int methods = in.readUnsignedShort();
        for (int i = 0; i < methods; i++) {
            in.skipBytes(2);
            String name = utf8[in.readUnsignedShort()];
            in.skipBytes(2);
            int line = firstLineIn(in, utf8);
            if (line < Integer.MAX_VALUE) {
                firstLines.merge(name, line, Math::min);
            }
        }
        String file = null;
        int attributes = in.readUnsignedShort();
        for (int i = 0; i < attributes; i++) {
            String name = utf8[in.readUnsignedShort()];
            int length = in.readInt();
            if (name.equals("SourceFile")) {
                file = utf8[in.readUnsignedShort()];
            } else {
                in.skipBytes(length);
            }
        }
        return new SourceLines(file, firstLines);
    }

    /** Keeps the UTF-8 entries, the only ones a name or an attribute refers to here. */
    private static String[] readConstantPool(DataInputStream in) throws IOException {
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        for (int index = 1; index < count; index++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[index] = in.readUTF();
                case 7, 8, 16, 19, 20 -> in.skipBytes(2);
                case 15 -> in.skipBytes(3);
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                case 5, 6 -> {
                    in.skipBytes(8);
                    index++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return utf8;
    }

    /** Reads one method's attributes; the smallest line of its Code's LineNumberTable, or MAX_VALUE without code. */
    private static int firstLineIn(DataInputStream in, String[] utf8) throws IOException {
        int first = Integer.MAX_VALUE;
        int attributes = in.readUnsignedShort();
        for (int i = 0; i < attributes; i++) {
            String name = utf8[in.readUnsignedShort()];
            int length = in.readInt();
            if (!name.equals("Code")) {
                in.skipBytes(length);
                continue;
            }
            in.skipBytes(4);
            in.skipBytes(in.readInt());
            in.skipBytes(8 * in.readUnsignedShort());
            int codeAttributes = in.readUnsignedShort();
            for (int j = 0; j < codeAttributes; j++) {
                String codeAttribute = utf8[in.readUnsignedShort()];
                int codeAttributeLength = in.readInt();
                if (!codeAttribute.equals("LineNumberTable")) {
                    in.skipBytes(codeAttributeLength);
                    continue;
                }
                int lines = in.readUnsignedShort();
                for (int k = 0; k < lines; k++) {
                    in.skipBytes(2);
                    first = Math.min(first, in.readUnsignedShort());
                }
            }
        }
        return first;
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int attributes = in.readUnsignedShort();
        for (int i = 0; i < attributes; i++) {
            in.skipBytes(2);
            in.skipBytes(in.readInt());
        }
    }
}
