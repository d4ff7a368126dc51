// Nothing to import: this target only contributes link-time definitions
// (see link-trim.c). SwiftPM wants every C target to have a header directory.
