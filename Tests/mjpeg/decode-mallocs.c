/*
 * How many heap allocations decoding MJPEG frames costs, with the firmware's
 * static libraries: decodes one JPEG N times through libv4lconvert (as
 * libv4l2 does on each DQBUF of an MJPEG camera) and prints the number of
 * malloc/calloc/realloc calls (counted with ld --wrap) and a checksum of the
 * last YUV 4:2:0 frame. Built and run by Tests/mjpeg/decode-mallocs.sh, with
 * and without Sources/CFirmwareLinkTrim/link-trim.c.
 *
 *   decode-mallocs FRAME.jpg WIDTH HEIGHT N
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/videodev2.h>
#include <libv4l-plugin.h>
#include <libv4lconvert.h>

extern void *__real_malloc(size_t);
extern void *__real_calloc(size_t, size_t);
extern void *__real_realloc(void *, size_t);
static long allocations;
void *__wrap_malloc(size_t n) { allocations++; return __real_malloc(n); }
void *__wrap_calloc(size_t a, size_t b) { allocations++; return __real_calloc(a, b); }
void *__wrap_realloc(void *p, size_t n) { allocations++; return __real_realloc(p, n); }

/* A camera that offers MJPEG only. */
static int camera_ioctl(void *priv, int fd, unsigned long request, void *arg) {
    (void)priv;
    (void)fd;
    if (request == VIDIOC_QUERYCAP) {
        struct v4l2_capability *cap = arg;
        memset(cap, 0, sizeof *cap);
        cap->capabilities = cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
        return 0;
    }
    if (request == VIDIOC_ENUM_FMT && ((struct v4l2_fmtdesc *)arg)->index == 0) {
        ((struct v4l2_fmtdesc *)arg)->pixelformat = V4L2_PIX_FMT_MJPEG;
        ((struct v4l2_fmtdesc *)arg)->flags = V4L2_FMT_FLAG_COMPRESSED;
        return 0;
    }
    errno = EINVAL;
    return -1;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: %s FRAME.jpg WIDTH HEIGHT N\n", argv[0]); return 2; }
    unsigned width = (unsigned)atoi(argv[2]), height = (unsigned)atoi(argv[3]);
    int frames = atoi(argv[4]);
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 2; }
    static unsigned char jpeg[1 << 20];
    size_t length = fread(jpeg, 1, sizeof jpeg, file);
    fclose(file);
    size_t yuv_bytes = (size_t)width * height * 3 / 2;
    unsigned char *yuv = malloc(yuv_bytes);

    struct libv4l_dev_ops ops = *v4lconvert_get_default_dev_ops();
    ops.ioctl = camera_ioctl;
    struct v4lconvert_data *converter = v4lconvert_create_with_dev_ops(-1, NULL, &ops);
    if (!converter) { fprintf(stderr, "v4lconvert_create failed\n"); return 1; }
    struct v4l2_format source;
    memset(&source, 0, sizeof source);
    source.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    source.fmt.pix.width = width;
    source.fmt.pix.height = height;
    source.fmt.pix.pixelformat = V4L2_PIX_FMT_MJPEG;
    source.fmt.pix.field = V4L2_FIELD_NONE;
    source.fmt.pix.sizeimage = (unsigned)length;
    struct v4l2_format target = source;
    target.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
    target.fmt.pix.bytesperline = width;
    target.fmt.pix.sizeimage = (unsigned)yuv_bytes;
    for (int i = 0; i < frames; i++) {
        if (v4lconvert_convert(converter, &source, &target, jpeg, (int)length, yuv, (int)yuv_bytes) < 0) {
            fprintf(stderr, "frame %d: %s\n", i, v4lconvert_get_error_message(converter));
            return 1;
        }
    }
    unsigned long sum = 0;
    for (size_t k = 0; k < yuv_bytes; k++) sum = sum * 31 + yuv[k];
    printf("allocations %ld checksum %lx\n", allocations, sum);
    v4lconvert_destroy(converter);
    return 0;
}
