/*
 * Link-time stand-ins for library code the firmware links but never runs.
 *
 * The static firmware links libv4l2 and libv4lconvert for cameras that only
 * send MJPEG. A few of their paths drag in much more than the box uses. A
 * definition here, given to the linker before the archives, keeps the archive
 * member holding the real one (and all it pulls in) out of the image, which
 * is what keeps the aarch64 firmware inside issue 2's 2.5 MB budget.
 *
 * - libv4l2 loads plugins with dlopen(). A static binary cannot load shared
 *   objects safely (glibc warns so at link time) and the SD image ships no
 *   plugins, so these answer as a system without plugins would: nothing to
 *   open.
 *
 * - libv4lconvert decodes the formats of some old webcam chips the box never
 *   asks for: it asks libv4l2 for MJPEG to YU12 only (V4L2Camera), and
 *   libv4lconvert picks a chip's format only from a camera that sends it.
 *   The biggest of those decoders are stood in for here; the JL2005BCD one is
 *   the only user of libjpeg's compressor. The int-returning ones report the
 *   frame as corrupt, which libv4lconvert turns into EAGAIN for that frame.
 *   The MJPEG path itself (libjpeg's decompressor, and jpeg_set_defaults and
 *   jpeg_write_tables for the Huffman tables MJPEG frames leave out) is the
 *   real library.
 *
 * - libjpeg's memory manager takes its per-image working memory (about
 *   18 KB in two blocks at 640x480) from malloc at each frame's
 *   jpeg_start_decompress and frees it at jpeg_finish_decompress. The box
 *   makes nothing per frame (house rule 3), so its system-dependent half
 *   (jmemnobs.c's functions) is replaced by one that keeps freed blocks and
 *   hands them back for the same size: after the first frame, decoding
 *   allocates nothing. One thread only, like the whole loop.
 *
 * Only the firmware build defines GATE_FIRMWARE_LINK_TRIM (image/toolset.sh);
 * in the host build this file is empty and the shared libraries are whole.
 * It is a target of its own because the package's objects come before the
 * libraries on the link line, which a stand-in must. Signatures as in
 * v4l-utils 1.22 (Debian 12), libv4lconvert-priv.h.
 */
#ifdef GATE_FIRMWARE_LINK_TRIM
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
#include <jerror.h>

struct v4lconvert_data;

void *dlopen(const char *file, int mode) {
    (void)file;
    (void)mode;
    return NULL;
}

void *dlsym(void *restrict handle, const char *restrict name) {
    (void)handle;
    (void)name;
    return NULL;
}

int dlclose(void *handle) {
    (void)handle;
    return -1;
}

char *dlerror(void) {
    return (char *)"the ts-gate firmware is static and loads no shared objects";
}

/* JL2005BCD: re-encodes stripes with libjpeg's compressor (about 80 KB). */
int v4lconvert_decode_jl2005bcd(struct v4lconvert_data *data, const unsigned char *src, int src_size,
                                unsigned char *dest, int width, int height) {
    (void)data; (void)src; (void)src_size; (void)dest; (void)width; (void)height;
    return -1;
}

/* JPGL (Divio/nw80x "JPEG lite"). */
int v4lconvert_decode_jpgl(const unsigned char *src, int src_size, unsigned int dest_pix_fmt,
                           unsigned char *dest, int width, int height) {
    (void)src; (void)src_size; (void)dest_pix_fmt; (void)dest; (void)width; (void)height;
    return -1;
}

/* SPCA561 (Sunplus) compressed Bayer: its tables are 16 KB of the image.
 * The decoder cannot report failure; the frame is left as it was. */
void v4lconvert_decode_spca561(const unsigned char *src, unsigned char *dst, int width, int height) {
    (void)src; (void)dst; (void)width; (void)height;
}

/* libjpeg's system-dependent memory functions (jmemnobs.c's set), with a
 * few freed blocks kept for reuse. A block is reused only for the same
 * size, which is what the next frame of the same stream asks for. */
enum { KEPT_BLOCKS = 16 };
static struct { void *block; size_t size; } kept[KEPT_BLOCKS];

static void *take_block(size_t size) {
    for (int i = 0; i < KEPT_BLOCKS; i++) {
        if (kept[i].block != NULL && kept[i].size == size) {
            void *block = kept[i].block;
            kept[i].block = NULL;
            return block;
        }
    }
    return malloc(size);
}

static void keep_block(void *block, size_t size) {
    for (int i = 0; i < KEPT_BLOCKS; i++) {
        if (kept[i].block == NULL) {
            kept[i].block = block;
            kept[i].size = size;
            return;
        }
    }
    free(block);
}

void *jpeg_get_small(j_common_ptr cinfo, size_t size) { (void)cinfo; return take_block(size); }
void jpeg_free_small(j_common_ptr cinfo, void *object, size_t size) { (void)cinfo; keep_block(object, size); }
void *jpeg_get_large(j_common_ptr cinfo, size_t size) { (void)cinfo; return take_block(size); }
void jpeg_free_large(j_common_ptr cinfo, void *object, size_t size) { (void)cinfo; keep_block(object, size); }

/* As jmemnobs.c: all the memory asked for is there, no backing store. */
size_t jpeg_mem_available(j_common_ptr cinfo, size_t min_bytes_needed, size_t max_bytes_needed,
                          size_t already_allocated) {
    (void)min_bytes_needed;
    if (cinfo->mem->max_memory_to_use) {
        size_t most = (size_t)cinfo->mem->max_memory_to_use;
        return most > already_allocated ? most - already_allocated : 0;
    }
    return max_bytes_needed;
}

void jpeg_open_backing_store(j_common_ptr cinfo, void *info, long total_bytes_needed) {
    (void)info;
    (void)total_bytes_needed;
    ERREXIT(cinfo, JERR_NO_BACKING_STORE);
}

long jpeg_mem_init(j_common_ptr cinfo) { (void)cinfo; return 0; }
void jpeg_mem_term(j_common_ptr cinfo) { (void)cinfo; }

#endif /* GATE_FIRMWARE_LINK_TRIM */
