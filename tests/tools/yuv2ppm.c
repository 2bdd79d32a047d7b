/*
 * yuv2ppm: planar Y'CbCr frames (raw, as ffmpeg -f rawvideo writes them) to 16-bit PPM,
 * written independently of the filters, for references from the oracle (which reads RGB):
 * limited range, the Kr/Kb matrix given, chroma upsampled bilinearly at its siting (chroma
 * sample (0,0) at luma position X0,Y0; samples clamped at the edges), R'G'B' clipped to
 * [0,1] and rounded to 16 bits.
 *
 *   yuv2ppm IN.yuv W H BITS LOG2CW LOG2CH KR KB X0 Y0 OUTPREFIX
 * writes OUTPREFIX0.ppm, OUTPREFIX1.ppm, ... (one per frame); prints the frame count.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* bilinear sample of a chroma plane at chroma coordinates (cx, cy) */
static double sample(const double *p, int w, int h, double cx, double cy)
{
    int x0 = (int)floor(cx), y0 = (int)floor(cy);
    double fx = cx - x0, fy = cy - y0;
    int xa = clampi(x0, 0, w - 1), xb = clampi(x0 + 1, 0, w - 1);
    int ya = clampi(y0, 0, h - 1), yb = clampi(y0 + 1, 0, h - 1);
    double top = p[ya * w + xa] * (1 - fx) + p[ya * w + xb] * fx;
    double bot = p[yb * w + xa] * (1 - fx) + p[yb * w + xb] * fx;
    return top * (1 - fy) + bot * fy;
}

int main(int argc, char **argv)
{
    if (argc != 12) {
        fprintf(stderr, "usage: yuv2ppm IN.yuv W H BITS LOG2CW LOG2CH KR KB X0 Y0 OUTPREFIX\n");
        return 1;
    }
    FILE *in = fopen(argv[1], "rb");
    int w = atoi(argv[2]), h = atoi(argv[3]), bits = atoi(argv[4]);
    int lw = atoi(argv[5]), lh = atoi(argv[6]);
    double kr = atof(argv[7]), kb = atof(argv[8]), x0 = atof(argv[9]), y0 = atof(argv[10]);
    double kg = 1 - kr - kb, scale = 1 << (bits - 8);
    int cw = (w + (1 << lw) - 1) >> lw, ch = (h + (1 << lh) - 1) >> lh, bps = bits > 8 ? 2 : 1;
    size_t n = (size_t)w * h + 2 * (size_t)cw * ch;
    uint8_t *raw = malloc(n * bps);
    double *pl = malloc(n * sizeof(*pl));
    if (!in || !raw || !pl) { fprintf(stderr, "yuv2ppm: cannot open %s\n", argv[1]); return 1; }
    int frames = 0;
    while (fread(raw, bps, n, in) == n) {
        for (size_t i = 0; i < n; i++)
            pl[i] = bps == 2 ? raw[2 * i] | raw[2 * i + 1] << 8 : raw[i];   /* little-endian */
        const double *Y = pl, *U = pl + (size_t)w * h, *V = U + (size_t)cw * ch;
        char name[4096];
        snprintf(name, sizeof(name), "%s%d.ppm", argv[11], frames);
        FILE *out = fopen(name, "wb");
        if (!out) { fprintf(stderr, "yuv2ppm: cannot write %s\n", name); return 1; }
        fprintf(out, "P6\n%d %d\n65535\n", w, h);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                /* luma (x, y) in chroma coordinates: chroma sample i sits at x0 + i * 2^lw */
                double cx = lw ? (x - x0) / (1 << lw) : x, cy = lh ? (y - y0) / (1 << lh) : y;
                double yy = (Y[y * w + x] - 16 * scale) / (219 * scale);
                double cb = (sample(U, cw, ch, cx, cy) - 128 * scale) / (224 * scale);
                double cr = (sample(V, cw, ch, cx, cy) - 128 * scale) / (224 * scale);
                double rgb[3];
                rgb[0] = yy + 2 * (1 - kr) * cr;
                rgb[2] = yy + 2 * (1 - kb) * cb;
                rgb[1] = (yy - kr * rgb[0] - kb * rgb[2]) / kg;
                for (int c = 0; c < 3; c++) {
                    double v = rgb[c] < 0 ? 0 : rgb[c] > 1 ? 1 : rgb[c];
                    int q = (int)lrint(v * 65535);
                    fputc(q >> 8, out);
                    fputc(q & 255, out);
                }
            }
        }
        fclose(out);
        frames++;
    }
    printf("%d\n", frames);
    return 0;
}
