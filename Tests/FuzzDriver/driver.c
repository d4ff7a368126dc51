// Declarations only (include/CFuzzDriver.h); SwiftPM wants a source file.
