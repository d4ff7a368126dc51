// SwiftPM needs one C source per C target; every wrapper is static inline in
// include/CGateShim.h.
#include "CGateShim.h"
