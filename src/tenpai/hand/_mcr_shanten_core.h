/*
 * The MCR shanten (every MCR winning form) shared by the compiled modules: _accel.c
 * (tenpai.hand's mcr()) and the compiled MCR rollouts (tenpai/rules/mcr/_mcr_rollout.c) both
 * include this file, so the MCR shanten exists once in C.  It mirrors tenpai/hand/mcr.py
 * (_shanten_mcr_py, the specification) and reads the same tables as _shanten_core.h plus the
 * two distance-vector tables (entry 2 * sets + pair per combined class), which each including
 * module's configure() fills into mpv_buf and shv_buf.  Everything is static, as in
 * _shanten_core.h: each module keeps its own buffer references.
 */
#ifndef TENPAI_MCR_SHANTEN_CORE_H
#define TENPAI_MCR_SHANTEN_CORE_H
#include "_shanten_core.h"

static Py_buffer mpv_buf, shv_buf;

/* The nine kinds of the six knitted patterns (147/258/369 over the suits in every order). */
static int KNITTED[6][9];

static void init_knitted(void) {
    static const int ORDERS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                     {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int p = 0; p < 6; p++) {
        int n = 0;
        for (int i = 0; i < 3; i++)
            for (int step = 0; step < 3; step++) KNITTED[p][n++] = 9 * ORDERS[p][i] + i + 3 * step;
        /* sorted, as KNITTED_PATTERNS is (only the set matters here) */
        for (int a = 0; a < 9; a++)
            for (int b = a + 1; b < 9; b++)
                if (KNITTED[p][b] < KNITTED[p][a]) {
                    int t = KNITTED[p][a];
                    KNITTED[p][a] = KNITTED[p][b];
                    KNITTED[p][b] = t;
                }
    }
}

/* Fewest tiles the hand must gain to contain `sets` sets and one pair, or FALLBACK.  Needs
 * init_kinds() (KIND_GROUP, KIND_PLACE). */
static int distance(const int *c, int sets) {
    const uint8_t *suit = (const uint8_t *)suit_buf.buf;
    const uint8_t *honor = (const uint8_t *)honor_buf.buf;
    const int16_t *mp = (const int16_t *)mp_buf.buf;
    const int16_t *sh = (const int16_t *)sh_buf.buf;
    const int16_t *mpv = (const int16_t *)mpv_buf.buf;
    const int16_t *shv = (const int16_t *)shv_buf.buf;
    long key[4] = {0, 0, 0, 0};
    for (int k = 0; k < 34; k++) key[KIND_GROUP[k]] += c[k] * KIND_PLACE[k];
    int m = suit[key[0]], p = suit[key[1]], s = suit[key[2]], z = honor[key[3]];
    if (m == 255 || p == 255 || s == 255 || z == 255) return FALLBACK;
    const int16_t *a = mpv + 10 * (Py_ssize_t)mp[m * n_pin + p];
    const int16_t *b = shv + 10 * (Py_ssize_t)sh[s * n_honor + z];
    int best = 99;
    for (int i = 0; i <= sets; i++) {
        int rest = 2 * (sets - i);
        int x = a[2 * i] + b[rest + 1], y = a[2 * i + 1] + b[rest];
        if (x < best) best = x;
        if (y < best) best = y;
    }
    return best;
}

/* MCR shanten of a validated 34-count vector (best of standard, seven pairs with quads as two
 * pairs, thirteen orphans, honours and knitted tiles, knitted straight), or FALLBACK for
 * anything the tables do not hold (the caller then takes the Python path).  Needs
 * init_kinds() and init_knitted(). */
static int mcr_code(const int *c) {
    int tiles;
    int best = standard_code(c, &tiles);
    if (best == FALLBACK) return FALLBACK;
    int missing[6];
    for (int p = 0; p < 6; p++) {
        missing[p] = 0;
        for (int i = 0; i < 9; i++) missing[p] += c[KNITTED[p][i]] == 0;
    }
    if (tiles >= 13) {
        int pairs = 0, honors = 0, least = 9;
        for (int k = 0; k < 34; k++) pairs += c[k] / 2;
        if (6 - pairs < best) best = 6 - pairs;
        int t = kokushi(c);
        if (t < best) best = t;
        for (int k = 27; k < 34; k++) honors += c[k] > 0;
        for (int p = 0; p < 6; p++)
            if (missing[p] < least) least = missing[p];
        int held = honors + 9 - least;
        t = 13 - (held < 14 ? held : 14);
        if (t < best) best = t;
    }
    if (tiles == 10 || tiles == 11 || tiles == 13 || tiles == 14) {
        int sets = tiles >= 13 ? 1 : 0, knit = best + 1;
        for (int p = 0; p < 6; p++) {
            if (missing[p] >= knit) continue;
            int rest[34];
            memcpy(rest, c, sizeof(rest));
            for (int i = 0; i < 9; i++)
                if (rest[KNITTED[p][i]]) rest[KNITTED[p][i]]--;
            int d = distance(rest, sets);
            if (d == FALLBACK) return FALLBACK;
            if (missing[p] + d < knit) knit = missing[p] + d;
        }
        if (knit - 1 < best) best = knit - 1;
    }
    return best;
}

#endif /* TENPAI_MCR_SHANTEN_CORE_H */
