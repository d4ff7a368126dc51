#include "CAccuracyJPEG.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

size_t accuracy_jpeg_encode_422(const uint8_t *luma, int width, int height, int quality,
                                uint8_t *out, size_t capacity) {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr jerr;
    cinfo.err = jpeg_std_error(&jerr); // a broken encode is a bug here: libjpeg exits with its message
    jpeg_create_compress(&cinfo);
    unsigned char *buffer = out;
    unsigned long size = capacity;
    jpeg_mem_dest(&cinfo, &buffer, &size); // grows into a buffer of its own if `out` is too small
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_YCbCr;
    jpeg_set_defaults(&cinfo);
    jpeg_set_colorspace(&cinfo, JCS_YCbCr);
    cinfo.comp_info[0].h_samp_factor = 2;
    cinfo.comp_info[0].v_samp_factor = 1;
    for (int c = 1; c < 3; c++) cinfo.comp_info[c].h_samp_factor = cinfo.comp_info[c].v_samp_factor = 1;
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    unsigned char *row = malloc((size_t)width * 3);
    memset(row, 128, (size_t)width * 3);
    while (cinfo.next_scanline < cinfo.image_height) {
        const uint8_t *source = luma + (size_t)cinfo.next_scanline * (size_t)width;
        for (int x = 0; x < width; x++) row[3 * x] = source[x];
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    free(row);
    size_t written = (size_t)size;
    jpeg_destroy_compress(&cinfo);
    if (buffer != out) { // did not fit
        free(buffer);
        return 0;
    }
    return written;
}
