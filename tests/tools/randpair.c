/*
 * randpair: random reference/distorted image pairs for differential tests of
 * the ssimulacra2 filter against an independent SSIMULACRA 2.1 implementation.
 *
 * Usage: randpair SEED OUTDIR [MAXAREA]
 *   Writes OUTDIR/ref.EXT and OUTDIR/dist.EXT (EXT = ppm, pgm or pam) and prints
 *   one line: "EXT WxH container=... content=... distortion=...".
 *   MAXAREA caps width*height (default 4000000).
 *
 * Everything derives from SEED through an integer PRNG, so a pair can be made
 * again from its seed. Public domain / CC0.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rnd64(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int irange(int lo, int hi) /* inclusive */
{
    return lo + (int)(rnd64() % (uint64_t)(hi - lo + 1));
}
static double frand(void) { return (rnd64() >> 11) * (1.0 / 9007199254740992.0); }
static double gauss(void)
{
    double u = frand(), v = frand();
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}
static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

/* ---- sizes: biased toward small sides and the scale thresholds ---- */
static int rand_side(void)
{
    static const int special[] = {
        8, 9, 10, 11, 12, 15, 16, 17, 31, 32, 33, 63, 64, 65, 111, 112, 113, 114,
        127, 128, 129, 223, 224, 225, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025,
    };
    int r = irange(0, 99);
    if (r < 25) return irange(8, 16);
    if (r < 45) return special[irange(0, (int)(sizeof(special) / sizeof(special[0])) - 1)];
    if (r < 80) return irange(17, 400);
    return irange(401, 2000);
}

typedef struct { int w, h; float *p[4]; } Img; /* R, G, B, A in 0..1 */

static Img img_new(int w, int h)
{
    Img im; im.w = w; im.h = h;
    for (int c = 0; c < 4; c++) {
        im.p[c] = malloc(sizeof(float) * (size_t)w * h);
        if (!im.p[c]) { fprintf(stderr, "randpair: out of memory\n"); exit(1); }
        for (size_t i = 0; i < (size_t)w * h; i++) im.p[c][i] = c == 3 ? 1.f : 0.f;
    }
    return im;
}
static Img img_copy(const Img *s)
{
    Img d = img_new(s->w, s->h);
    for (int c = 0; c < 4; c++) memcpy(d.p[c], s->p[c], sizeof(float) * (size_t)s->w * s->h);
    return d;
}

/* ---- content ---- */
static void c_gradient(Img *im)
{
    double c0[3], c1[3], ang = frand() * 6.283185307179586;
    int radial = irange(0, 2) == 0;
    double cx = frand() * im->w, cy = frand() * im->h, dx = cos(ang), dy = sin(ang);
    double len = fabs(dx) * im->w + fabs(dy) * im->h + 1;
    for (int c = 0; c < 3; c++) { c0[c] = frand(); c1[c] = frand(); }
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            double t;
            if (radial) t = sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy)) / (0.5 * (im->w + im->h));
            else t = ((x * dx + y * dy) / len) + 0.5;
            t = t - floor(t);
            for (int c = 0; c < 3; c++) im->p[c][y * im->w + x] = (float)(c0[c] + (c1[c] - c0[c]) * t);
        }
}
static void c_flat(Img *im)
{
    double v[3]; for (int c = 0; c < 3; c++) v[c] = frand();
    for (int c = 0; c < 3; c++)
        for (size_t i = 0; i < (size_t)im->w * im->h; i++) im->p[c][i] = (float)v[c];
}
static void c_shapes(Img *im)
{
    int n = irange(3, 40);
    for (int k = 0; k < n; k++) {
        double col[3]; for (int c = 0; c < 3; c++) col[c] = frand();
        int x0 = irange(-im->w / 4, im->w - 1), y0 = irange(-im->h / 4, im->h - 1);
        int ww = irange(1, im->w / 2 + 1), hh = irange(1, im->h / 2 + 1);
        int circle = irange(0, 2) == 0;
        double rx = ww / 2.0, ry = hh / 2.0;
        for (int y = y0 < 0 ? 0 : y0; y < y0 + hh && y < im->h; y++)
            for (int x = x0 < 0 ? 0 : x0; x < x0 + ww && x < im->w; x++) {
                if (circle) {
                    double ux = (x - x0 - rx + 0.5) / rx, uy = (y - y0 - ry + 0.5) / ry;
                    if (ux * ux + uy * uy > 1) continue;
                }
                for (int c = 0; c < 3; c++) im->p[c][y * im->w + x] = (float)col[c];
            }
    }
}
static void c_noise(Img *im)
{
    int cell = irange(0, 2) ? irange(1, 16) : 1; /* value noise on a grid */
    int gw = im->w / cell + 2, gh = im->h / cell + 2;
    float *g = malloc(sizeof(float) * 3 * gw * gh);
    double amp = 0.2 + 0.8 * frand(), base = frand() * (1 - amp);
    for (int i = 0; i < 3 * gw * gh; i++) g[i] = (float)(base + amp * frand());
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            double fx = (double)x / cell, fy = (double)y / cell;
            int ix = (int)fx, iy = (int)fy;
            double ax = fx - ix, ay = fy - iy;
            for (int c = 0; c < 3; c++) {
                float *G = g + c * gw * gh;
                double v = (1 - ay) * ((1 - ax) * G[iy * gw + ix] + ax * G[iy * gw + ix + 1]) +
                           ay * ((1 - ax) * G[(iy + 1) * gw + ix] + ax * G[(iy + 1) * gw + ix + 1]);
                im->p[c][y * im->w + x] = (float)v;
            }
        }
    free(g);
}
static void c_text(Img *im)
{
    double bg = 0.75 + 0.25 * frand(), fg = 0.3 * frand();
    int dark_on_light = irange(0, 3) != 0;
    if (!dark_on_light) { double t = bg; bg = fg; fg = t; }
    for (int c = 0; c < 3; c++)
        for (size_t i = 0; i < (size_t)im->w * im->h; i++) im->p[c][i] = (float)bg;
    int gh = irange(5, 14), gw = gh * 2 / 3 + 1, stroke = gh > 10 ? 2 : 1;
    for (int ly = 1; ly + gh < im->h; ly += gh + irange(2, 6))
        for (int lx = 1; lx + gw < im->w; lx += gw + 1) {
            if (irange(0, 6) == 0) { lx += gw; continue; } /* word gap */
            int segs = irange(2, 5);
            for (int s = 0; s < segs; s++) { /* random strokes of a 3x5 "glyph" grid */
                int vert = irange(0, 1);
                int gx = irange(0, 2) * (gw - stroke) / 2, gy = irange(0, 4) * (gh - stroke) / 4;
                int len = vert ? gh / 2 : gw / 2 + 1;
                for (int t = 0; t < len; t++)
                    for (int u = 0; u < stroke; u++) {
                        int x = lx + gx + (vert ? u : t), y = ly + gy + (vert ? t : u);
                        if (x < im->w && y < im->h)
                            for (int c = 0; c < 3; c++) im->p[c][y * im->w + x] = (float)fg;
                    }
            }
        }
}
static void c_alpha(Img *im)
{
    int kind = irange(0, 4);
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            double a;
            switch (kind) {
            case 0: a = 1; break;
            case 1: a = (double)x / (im->w - 1); break;
            case 2: a = ((x / 7 + y / 5) & 1) ? 1 : 0.25; break;
            case 3: a = 0.5 + 0.5 * sin(x * 0.21) * cos(y * 0.13); break;
            default: a = frand() < 0.1 ? 0 : 1; break;
            }
            im->p[3][y * im->w + x] = (float)a;
        }
}

static const char *make_content(Img *im)
{
    static char desc[96];
    int kind = irange(0, 5);
    desc[0] = 0;
    switch (kind) {
    case 0: c_gradient(im); strcpy(desc, "gradient"); break;
    case 1: c_shapes(im); strcpy(desc, "shapes"); break;
    case 2: c_noise(im); strcpy(desc, "noise"); break;
    case 3: c_text(im); strcpy(desc, "text"); break;
    case 4: c_flat(im); strcpy(desc, "flat"); break;
    default: /* mixture: gradient background with shapes and text-like strokes */
        c_gradient(im);
        {
            Img t = img_new(im->w, im->h);
            c_shapes(&t);
            for (int c = 0; c < 3; c++)
                for (size_t i = 0; i < (size_t)im->w * im->h; i++)
                    if (((i * 2654435761u) >> 7) % 3 == 0 || t.p[c][i] > 0.5f) im->p[c][i] = t.p[c][i];
            for (int c = 0; c < 4; c++) free(t.p[c]);
        }
        strcpy(desc, "mixed");
        break;
    }
    return desc;
}

/* ---- distortions, applied in the 0..1 domain ---- */
static void d_noise(Img *im, double sigma, int alpha_too)
{
    for (int c = 0; c < (alpha_too ? 4 : 3); c++)
        for (size_t i = 0; i < (size_t)im->w * im->h; i++)
            im->p[c][i] = (float)clamp01(im->p[c][i] + sigma * gauss());
}
static void d_blur(Img *im, int r)
{
    Img t = img_copy(im);
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < im->h; y++) /* horizontal box, clamped edges */
            for (int x = 0; x < im->w; x++) {
                double s = 0;
                for (int k = -r; k <= r; k++) {
                    int xx = x + k < 0 ? 0 : x + k >= im->w ? im->w - 1 : x + k;
                    s += im->p[c][y * im->w + xx];
                }
                t.p[c][y * im->w + x] = (float)(s / (2 * r + 1));
            }
        for (int y = 0; y < im->h; y++)
            for (int x = 0; x < im->w; x++) {
                double s = 0;
                for (int k = -r; k <= r; k++) {
                    int yy = y + k < 0 ? 0 : y + k >= im->h ? im->h - 1 : y + k;
                    s += t.p[c][yy * im->w + x];
                }
                im->p[c][y * im->w + x] = (float)(s / (2 * r + 1));
            }
    }
    for (int c = 0; c < 4; c++) free(t.p[c]);
}
static void d_posterize(Img *im, int levels)
{
    for (int c = 0; c < 3; c++)
        for (size_t i = 0; i < (size_t)im->w * im->h; i++)
            im->p[c][i] = (float)(floor(im->p[c][i] * (levels - 1) + 0.5) / (levels - 1));
}
static void d_shift(Img *im, int dx, int dy)
{
    Img t = img_copy(im);
    for (int c = 0; c < 4; c++)
        for (int y = 0; y < im->h; y++)
            for (int x = 0; x < im->w; x++) {
                int sx = x - dx, sy = y - dy;
                sx = sx < 0 ? 0 : sx >= im->w ? im->w - 1 : sx;
                sy = sy < 0 ? 0 : sy >= im->h ? im->h - 1 : sy;
                im->p[c][y * im->w + x] = t.p[c][sy * im->w + sx];
            }
    for (int c = 0; c < 4; c++) free(t.p[c]);
}
static void d_blocky(Img *im, int bs, double mix)
{
    for (int c = 0; c < 3; c++)
        for (int by = 0; by < im->h; by += bs)
            for (int bx = 0; bx < im->w; bx += bs) {
                double s = 0; int n = 0;
                for (int y = by; y < by + bs && y < im->h; y++)
                    for (int x = bx; x < bx + bs && x < im->w; x++) { s += im->p[c][y * im->w + x]; n++; }
                s /= n;
                for (int y = by; y < by + bs && y < im->h; y++)
                    for (int x = bx; x < bx + bs && x < im->w; x++) {
                        float *p = &im->p[c][y * im->w + x];
                        *p = (float)((1 - mix) * *p + mix * s);
                    }
            }
}
static void d_colour(Img *im)
{
    double gain[3], off[3];
    for (int c = 0; c < 3; c++) { gain[c] = 0.85 + 0.3 * frand(); off[c] = 0.1 * (frand() - 0.5); }
    for (int c = 0; c < 3; c++)
        for (size_t i = 0; i < (size_t)im->w * im->h; i++)
            im->p[c][i] = (float)clamp01(im->p[c][i] * gain[c] + off[c]);
}

static void apply_distortion(Img *im, int has_alpha, char *desc, size_t dsz)
{
    int n = irange(0, 9) < 7 ? 1 : 2;
    if (irange(0, 29) == 0) { snprintf(desc, dsz, "identity"); return; }
    desc[0] = 0;
    for (int k = 0; k < n; k++) {
        char part[48];
        switch (irange(0, 5)) {
        case 0: { double s = 0.002 + 0.1 * frand() * frand(); d_noise(im, s, has_alpha && irange(0, 1));
                  snprintf(part, sizeof(part), "noise%.4f", s); break; }
        case 1: { int r = irange(1, 3); d_blur(im, r); snprintf(part, sizeof(part), "blur%d", r); break; }
        case 2: { int l = irange(3, 64); d_posterize(im, l); snprintf(part, sizeof(part), "posterize%d", l); break; }
        case 3: { int dx = irange(-3, 3), dy = irange(-3, 3); if (!dx && !dy) dx = 1;
                  d_shift(im, dx, dy); snprintf(part, sizeof(part), "shift%d,%d", dx, dy); break; }
        case 4: { int bs = irange(0, 1) ? 8 : irange(2, 16); double m = 0.3 + 0.7 * frand();
                  d_blocky(im, bs, m); snprintf(part, sizeof(part), "blocky%d", bs); break; }
        default: d_colour(im); snprintf(part, sizeof(part), "colour"); break;
        }
        if (k) strncat(desc, "+", dsz - strlen(desc) - 1);
        strncat(desc, part, dsz - strlen(desc) - 1);
    }
}

/* ---- output ---- */
static void write_img(const char *path, const Img *im, int kind, int bits)
{
    /* kind: 0 = PPM (P6), 1 = PGM (P5), 2 = PAM RGB_ALPHA */
    FILE *f = fopen(path, "wb");
    int maxv = bits == 16 ? 65535 : 255, nc = kind == 0 ? 3 : kind == 1 ? 1 : 4;
    if (!f) { perror(path); exit(1); }
    if (kind == 2)
        fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL %d\nTUPLTYPE RGB_ALPHA\nENDHDR\n", im->w, im->h, maxv);
    else
        fprintf(f, "%s\n%d %d\n%d\n", kind == 0 ? "P6" : "P5", im->w, im->h, maxv);
    size_t rowbytes = (size_t)im->w * nc * (bits / 8);
    unsigned char *row = malloc(rowbytes);
    for (int y = 0; y < im->h; y++) {
        size_t o = 0;
        for (int x = 0; x < im->w; x++)
            for (int c = 0; c < nc; c++) {
                int ch = kind == 1 ? 1 : c; /* gray: take G */
                double v = clamp01(im->p[ch][y * im->w + x]);
                unsigned q = (unsigned)floor(v * maxv + 0.5);
                if (bits == 16) { row[o++] = q >> 8; row[o++] = q & 255; }
                else row[o++] = q;
            }
        fwrite(row, 1, rowbytes, f);
    }
    free(row);
    if (fclose(f)) { perror(path); exit(1); }
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s SEED OUTDIR [MAXAREA]\n", argv[0]); return 2; }
    rng_state = strtoull(argv[1], NULL, 10) * 0x2545F4914F6CDD1DULL + 12345;
    long maxarea = argc > 3 ? atol(argv[3]) : 4000000;
    for (int i = 0; i < 4; i++) rnd64();

    int w = rand_side(), h = rand_side();
    while ((long)w * h > maxarea) { /* shrink the larger side */
        if (w >= h) w = w * 3 / 4 < 8 ? 8 : w * 3 / 4; else h = h * 3 / 4 < 8 ? 8 : h * 3 / 4;
    }
    int ck = irange(0, 9), kind, bits;
    if (ck < 5) kind = 0; else if (ck < 7) kind = 1; else kind = 2;
    bits = irange(0, 2) == 0 ? 16 : 8;

    Img ref = img_new(w, h);
    const char *content = make_content(&ref);
    char cdesc[96];
    snprintf(cdesc, sizeof(cdesc), "%s", content);
    if (kind == 2) c_alpha(&ref);
    Img dist = img_copy(&ref);
    char ddesc[160];
    apply_distortion(&dist, kind == 2, ddesc, sizeof(ddesc));

    const char *ext = kind == 0 ? "ppm" : kind == 1 ? "pgm" : "pam";
    char path[4096];
    snprintf(path, sizeof(path), "%s/ref.%s", argv[2], ext);
    write_img(path, &ref, kind, bits);
    snprintf(path, sizeof(path), "%s/dist.%s", argv[2], ext);
    write_img(path, &dist, kind, bits);
    printf("%s %dx%d %s%d content=%s distortion=%s\n", ext, w, h,
           kind == 0 ? "rgb" : kind == 1 ? "gray" : "rgba", bits, cdesc, ddesc);
    for (int c = 0; c < 4; c++) { free(ref.p[c]); free(dist.p[c]); }
    return 0;
}
