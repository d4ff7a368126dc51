// `make accuracy --mjpeg Q` (gate-accuracy, host only): libjpeg's encoder,
// to send each rendered frame through JPEG as a webcam does. Never part of
// the firmware, which only decodes (through libv4lconvert).
#pragma once
#include <stddef.h>
#include <stdint.h>

// Encodes a width x height luma plane as a baseline JPEG at `quality`
// (1-100) with 4:2:2 chroma, as UVC cameras send: three components, luma
// sampled 2x1, chroma at 128 (JPEG codes luma apart from chroma, so the
// luma blocks are those of a coloured frame with the same luma). Writes at
// most `capacity` bytes to `out`; returns the JPEG's size, 0 if it did not fit.
size_t accuracy_jpeg_encode_422(const uint8_t *luma, int width, int height, int quality,
                                uint8_t *out, size_t capacity);
