# A folder of the course's own sources linked into the learner's source folder.
ln -s ../../../../src/test/java/fencingkoans/koans exercises/src/main/java/linked
