/*
 * jpeg.c — JPEG decoding and encoding through libjpeg(-turbo), the only file
 * that includes jpeglib.h / jerror.h.
 *
 * Decoding follows TensorFlow's settings so pixels match TF exactly: the
 * default IDCT is JDCT_IFAST, as in TF (INTEGER_ACCURATE selects JDCT_ISLOW), fancy
 * upsampling is configurable, scaling is 1/ratio, and 0 channels means the
 * stored component count capped at 3 (CMYK/YCCK images are converted to RGB
 * by hand). Input comes from a memory source whose end-of-data handling is
 * TF's: without try_recover_truncated running out of data is an error; with
 * it a fake EOI marker is handed out each time (libjpeg then fills the
 * missing blocks), up to a bound that guarantees termination; a request for
 * more data while bytes are left suspends decoding (an error) unless
 * recovering, where it is answered a bounded number of times.
 *
 * libjpeg reports fatal errors through error_exit, which here longjmps back
 * to the caller's setjmp; everything allocated before the jump is reachable
 * from the (memory-resident) job struct and freed after it, so corrupt data
 * never crashes nor leaks. Messages are not printed.
 */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "base/alloc.h"
#include "kernels/image_internal.h"

/* ---------------------------------------------------------------- errors */

typedef struct err_mgr {
  struct jpeg_error_mgr pub;
  jmp_buf jump;
} err_mgr;

/* error_exit: unwinds to the setjmp of the current job. */
static void on_error_exit(j_common_ptr cinfo) {
  err_mgr *e = (err_mgr *)cinfo->err;
  longjmp(e->jump, 1);
}

/* output_message: silent (TF only logs). */
static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* ---------------------------------------------------------------- memory source */

typedef struct mem_src {
  struct jpeg_source_mgr pub;
  const JOCTET *data;
  size_t len;
  bool recover;
  int eoi_inserted;  /* fake EOI markers handed out */
  int retries;       /* refills answered with data still left */
} mem_src;

static const JOCTET kFakeEoi[2] = {0xFF, JPEG_EOI};

static void src_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void src_term(j_decompress_ptr cinfo) { (void)cinfo; }

/* Called when the buffer is exhausted: see the file comment. */
static boolean src_fill(j_decompress_ptr cinfo) {
  mem_src *s = (mem_src *)cinfo->src;
  if (s->pub.bytes_in_buffer == 0 && s->pub.next_input_byte == s->data) {
    ERREXIT(cinfo, JERR_INPUT_EMPTY);
    return FALSE;
  }
  /* Data left but libjpeg wants more: corrupt. When recovering, carry on a
   * bounded number of times (unbounded, libjpeg may ask again forever). */
  if (s->pub.bytes_in_buffer) return s->recover && ++s->retries <= 64 ? TRUE : FALSE;
  if (s->recover && s->eoi_inserted < 64) {
    s->eoi_inserted++;
    WARNMS(cinfo, JWRN_JPEG_EOF);
    s->pub.next_input_byte = kFakeEoi;
    s->pub.bytes_in_buffer = 2;
    return TRUE;
  }
  ERREXIT(cinfo, JERR_FILE_READ);
  return FALSE;
}

static void src_skip(j_decompress_ptr cinfo, long n) {
  mem_src *s = (mem_src *)cinfo->src;
  if (n <= 0) return;
  if ((size_t)n > s->pub.bytes_in_buffer) {
    s->pub.next_input_byte += s->pub.bytes_in_buffer;
    s->pub.bytes_in_buffer = 0;
    (void)src_fill(cinfo);
  } else {
    s->pub.next_input_byte += n;
    s->pub.bytes_in_buffer -= (size_t)n;
  }
}

/* ---------------------------------------------------------------- decode */

bool tfc_jpeg_is_jpeg(const uint8_t *data, size_t len) {
  return len >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF;
}

/* State of one decode, kept in memory so it survives a longjmp. */
typedef struct dec_job {
  struct jpeg_decompress_struct cinfo;
  err_mgr err;
  mem_src src;
  tfc_tensor *out;
  JSAMPLE *tmp;  /* CMYK row */
  bool created;
} dec_job;

static void dec_cleanup(dec_job *j) {
  if (j->created) jpeg_destroy_decompress(&j->cinfo);
  j->created = false;
  tfc_free(j->tmp);
  j->tmp = NULL;
  tfc_tensor_unref(j->out);
  j->out = NULL;
}

/* Converts n CMYK pixels (Adobe-inverted when inverted) to RGB. */
static void cmyk_to_rgb(const JSAMPLE *src, uint8_t *dst, JDIMENSION n, bool inverted) {
  for (JDIMENSION i = 0; i < n; i++) {
    int c = src[4 * i], m = src[4 * i + 1], y = src[4 * i + 2], k = src[4 * i + 3];
    if (inverted) {
      dst[3 * i] = (uint8_t)(k * c / 255);
      dst[3 * i + 1] = (uint8_t)(k * m / 255);
      dst[3 * i + 2] = (uint8_t)(k * y / 255);
    } else {
      dst[3 * i] = (uint8_t)((255 - k) * (255 - c) / 255);
      dst[3 * i + 1] = (uint8_t)((255 - k) * (255 - m) / 255);
      dst[3 * i + 2] = (uint8_t)((255 - k) * (255 - y) / 255);
    }
  }
}

/* The decode proper; false means "invalid data" (or OOM with st set). */
static bool dec_run(dec_job *j, const uint8_t *data, size_t len, const tfc_jpeg_decode_opts *o,
                    tfc_status *st) {
  struct jpeg_decompress_struct *ci = &j->cinfo;
  ci->err = jpeg_std_error(&j->err.pub);
  j->err.pub.error_exit = on_error_exit;
  j->err.pub.output_message = on_output_message;
  if (setjmp(j->err.jump)) return false;
  jpeg_create_decompress(ci);
  j->created = true;
  j->src.pub.init_source = src_init;
  j->src.pub.fill_input_buffer = src_fill;
  j->src.pub.skip_input_data = src_skip;
  j->src.pub.resync_to_restart = jpeg_resync_to_restart;
  j->src.pub.term_source = src_term;
  j->src.pub.next_input_byte = data;
  j->src.pub.bytes_in_buffer = len;
  j->src.data = data;
  j->src.len = len;
  j->src.recover = o->try_recover_truncated;
  ci->src = &j->src.pub;
  if (jpeg_read_header(ci, TRUE) != JPEG_HEADER_OK) return false;

  int comps = o->channels == 0 ? (ci->num_components < 3 ? ci->num_components : 3) : o->channels;
  bool cmyk = false;
  if (comps == 1) {
    ci->out_color_space = JCS_GRAYSCALE;
  } else if (comps == 3) {
    if (ci->jpeg_color_space == JCS_CMYK || ci->jpeg_color_space == JCS_YCCK) {
      ci->out_color_space = JCS_CMYK;
      cmyk = true;
    } else {
      ci->out_color_space = JCS_RGB;
    }
  } else {
    return false;
  }
  ci->do_fancy_upsampling = o->fancy_upscaling ? TRUE : FALSE;
  ci->scale_num = 1;
  ci->scale_denom = (unsigned)o->ratio;
  ci->dct_method = o->dct_fast ? JDCT_IFAST : JDCT_ISLOW;
  jpeg_calc_output_dimensions(ci);
  int64_t w = ci->output_width, h = ci->output_height;
  if (w <= 0 || h <= 0) return false;
  if (h * w * ci->num_components >= ((int64_t)1 << 29)) return false;
  if (!jpeg_start_decompress(ci)) return false;
  if ((!cmyk && ci->output_components != comps) || (cmyk && ci->output_components != 4))
    return false;

  int64_t dims[3] = {h, w, comps};
  tfc_status ast;
  tfc_status_clear(&ast);
  j->out = tfc_tensor_new(TFC_DTYPE_UINT8, 3, dims, &ast);
  if (!j->out) {
    tfc_status_copy(st, &ast);
    return false;
  }
  if (cmyk) {
    j->tmp = tfc_malloc((size_t)w * 4);
    if (!j->tmp) {
      tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM decoding JPEG");
      return false;
    }
  }
  uint8_t *px = j->out->data;
  size_t stride = (size_t)w * (size_t)comps;
  while (ci->output_scanline < ci->output_height) {
    JDIMENSION row = ci->output_scanline;
    JSAMPROW line = cmyk ? j->tmp : (JSAMPROW)(px + (size_t)row * stride);
    if (jpeg_read_scanlines(ci, &line, 1) == 0) {
      /* Suspended: no more data. */
      if (!o->try_recover_truncated) return false;
      memset(px + (size_t)row * stride, 0, (size_t)(h - row) * stride);
      if ((double)row < (double)o->acceptable_fraction * (double)h) return false;
      jpeg_abort_decompress(ci);
      return true;
    }
    if (cmyk) cmyk_to_rgb(j->tmp, px + (size_t)row * stride, (JDIMENSION)w, ci->saw_Adobe_marker);
  }
  /* Trailing garbage or a missing EOI after the last row must not fail. */
  jpeg_abort_decompress(ci);
  return true;
}

bool tfc_jpeg_decode(const uint8_t *data, size_t len, const tfc_jpeg_decode_opts *o,
                     tfc_tensor **out, tfc_status *st) {
  *out = NULL;
  dec_job *j = tfc_calloc(1, sizeof *j);
  if (!j) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM decoding JPEG");
  bool ok = len > 0 && dec_run(j, data, len, o, st);
  if (ok) {
    *out = j->out;
    j->out = NULL;
  }
  dec_cleanup(j);
  tfc_free(j);
  if (!ok && st->code == TFC_CODE_OK)
    tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid JPEG data or crop window, data size %zu",
                   len);
  return ok;
}

/* ---------------------------------------------------------------- encode */

/* Growing output buffer for the compressor. */
typedef struct mem_dst {
  struct jpeg_destination_mgr pub;
  JOCTET *buf;
  size_t cap;
  bool oom;
} mem_dst;

static void dst_init(j_compress_ptr cinfo) {
  mem_dst *d = (mem_dst *)cinfo->dest;
  d->pub.next_output_byte = d->buf;
  d->pub.free_in_buffer = d->cap;
}

/* Buffer full: doubles it (an OOM aborts the compression). */
static boolean dst_empty(j_compress_ptr cinfo) {
  mem_dst *d = (mem_dst *)cinfo->dest;
  size_t ncap = d->cap * 2;
  JOCTET *nb = tfc_realloc(d->buf, ncap);
  if (!nb) {
    d->oom = true;
    ERREXIT(cinfo, JERR_OUT_OF_MEMORY);
    return FALSE;
  }
  d->pub.next_output_byte = nb + d->cap;
  d->pub.free_in_buffer = ncap - d->cap;
  d->buf = nb;
  d->cap = ncap;
  return TRUE;
}

static void dst_term(j_compress_ptr cinfo) { (void)cinfo; }

typedef struct enc_job {
  struct jpeg_compress_struct cinfo;
  err_mgr err;
  mem_dst dst;
  JOCTET *marker;
  bool created;
} enc_job;

static bool enc_run(enc_job *j, const uint8_t *px, int64_t h, int64_t w, int channels,
                    const tfc_jpeg_encode_opts *o) {
  struct jpeg_compress_struct *ci = &j->cinfo;
  ci->err = jpeg_std_error(&j->err.pub);
  j->err.pub.error_exit = on_error_exit;
  j->err.pub.output_message = on_output_message;
  if (setjmp(j->err.jump)) return false;
  jpeg_create_compress(ci);
  j->created = true;
  j->dst.cap = 1 << 14;
  j->dst.buf = tfc_malloc(j->dst.cap);
  if (!j->dst.buf) {
    j->dst.oom = true;
    return false;
  }
  j->dst.pub.init_destination = dst_init;
  j->dst.pub.empty_output_buffer = dst_empty;
  j->dst.pub.term_destination = dst_term;
  ci->dest = &j->dst.pub;
  ci->image_width = (JDIMENSION)w;
  ci->image_height = (JDIMENSION)h;
  ci->input_components = channels;
  ci->in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(ci);
  if (o->optimize_size) ci->optimize_coding = TRUE;
  ci->density_unit = (UINT8)o->density_unit;
  ci->X_density = (UINT16)o->x_density;
  ci->Y_density = (UINT16)o->y_density;
  jpeg_set_quality(ci, o->quality, TRUE);
  if (o->progressive) jpeg_simple_progression(ci);
  if (!o->chroma_downsampling)
    for (int i = 0; i < ci->num_components; i++) {
      ci->comp_info[i].h_samp_factor = 1;
      ci->comp_info[i].v_samp_factor = 1;
    }
  jpeg_start_compress(ci, TRUE);
  if (o->xmp && o->xmp_len) {
    static const char ns[] = "http://ns.adobe.com/xap/1.0/";
    size_t n = sizeof ns + o->xmp_len; /* namespace, its NUL, the packet */
    if (n > 65533) return false;
    j->marker = tfc_malloc(n);
    if (!j->marker) {
      j->dst.oom = true;
      return false;
    }
    memcpy(j->marker, ns, sizeof ns);
    memcpy(j->marker + sizeof ns, o->xmp, o->xmp_len);
    jpeg_write_marker(ci, JPEG_APP0 + 1, j->marker, (unsigned)n);
  }
  size_t stride = (size_t)w * (size_t)channels;
  while (ci->next_scanline < ci->image_height) {
    JSAMPROW row = (JSAMPROW)(px + (size_t)ci->next_scanline * stride);
    jpeg_write_scanlines(ci, &row, 1);
  }
  jpeg_finish_compress(ci);
  return true;
}

bool tfc_jpeg_encode(const uint8_t *pixels, int64_t h, int64_t w, int channels,
                     const tfc_jpeg_encode_opts *o, char **out_data, size_t *out_len,
                     tfc_status *st) {
  *out_data = NULL;
  *out_len = 0;
  if (h <= 0 || w <= 0 || h > 65535 || w > 65535)
    return tfc_status_set(st, TFC_CODE_INVALID_ARGUMENT, "Invalid image size for JPEG: %lld x %lld",
                          (long long)h, (long long)w);
  enc_job *j = tfc_calloc(1, sizeof *j);
  if (!j) return tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM encoding JPEG");
  bool ok = enc_run(j, pixels, h, w, channels, o);
  if (ok) {
    *out_len = j->dst.cap - j->dst.pub.free_in_buffer;
    *out_data = (char *)j->dst.buf;
    j->dst.buf = NULL;
  } else if (j->dst.oom) {
    tfc_status_set(st, TFC_CODE_RESOURCE_EXHAUSTED, "OOM encoding JPEG");
  } else {
    tfc_status_set(st, TFC_CODE_INTERNAL, "JPEG encoding failed");
  }
  if (j->created) jpeg_destroy_compress(&j->cinfo);
  tfc_free(j->dst.buf);
  tfc_free(j->marker);
  tfc_free(j);
  return ok;
}
