/*
 * The Riichi shanten look-ups shared by the compiled modules: _accel.c (tenpai.hand) and
 * _rollout.c (tenpai.rules.riichi) both include this file, so there is one shanten algorithm in C
 * and it reads the tables tenpai.hand.tables builds (each module is handed the same buffers by
 * its configure(), which takes them with shanten_tables_take() below).  Everything is static:
 * each including module keeps its own copy of the table pointers, filled by its own
 * configure().
 */
#ifndef TENPAI_SHANTEN_CORE_H
#define TENPAI_SHANTEN_CORE_H
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define FALLBACK (-3)

static Py_buffer suit_buf, honor_buf, mp_buf, sh_buf, final_buf;
static Py_ssize_t n_pin = 0, n_honor = 0, n_sh = 0;
static int invalid_code = 99;

static const int TERMINALS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

/* Standard-form code from the tables, or FALLBACK; *tiles receives the tile count. */
static int standard_code(const int *c, int *tiles) {
    const uint8_t *suit = (const uint8_t *)suit_buf.buf;
    const uint8_t *honor = (const uint8_t *)honor_buf.buf;
    const int16_t *mp = (const int16_t *)mp_buf.buf;
    const int16_t *sh = (const int16_t *)sh_buf.buf;
    const int8_t *fin = (const int8_t *)final_buf.buf;
    int cls[4];
    int total = 0;
    for (int s = 0; s < 3; s++) {
        long key = 0;
        for (int i = 0; i < 9; i++) {
            key = key * 5 + c[s * 9 + i];
            total += c[s * 9 + i];
        }
        cls[s] = suit[key];
        if (cls[s] == 255) return FALLBACK;
    }
    long key = 0;
    for (int i = 27; i < 34; i++) {
        key = key * 5 + c[i];
        total += c[i];
    }
    cls[3] = honor[key];
    if (cls[3] == 255) return FALLBACK;
    *tiles = total;
    int a = mp[cls[0] * n_pin + cls[1]];
    int b = sh[cls[2] * n_honor + cls[3]];
    int code = fin[(Py_ssize_t)a * n_sh + b];
    if (code == invalid_code) return FALLBACK;
    return code;
}

static int chiitoi(const int *c) {
    int kinds = 0, pairs = 0;
    for (int i = 0; i < 34; i++) {
        if (c[i]) kinds++;
        if (c[i] >= 2) pairs++;
    }
    return 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
}

static int kokushi(const int *c) {
    int have = 0, pair = 0;
    for (int i = 0; i < 13; i++) {
        int v = c[TERMINALS[i]];
        if (v) have++;
        if (v >= 2) pair = 1;
    }
    return 13 - have - pair;
}

/* Riichi shanten of a validated vector, or FALLBACK; *tiles receives the tile count. */
static int riichi_code(const int *c, int *tiles) {
    int s = standard_code(c, tiles);
    if (s == FALLBACK) return FALLBACK;
    if (*tiles >= 13) {
        int t = chiitoi(c);
        if (t < s) s = t;
        t = kokushi(c);
        if (t < s) s = t;
    }
    return s;
}

/* ---- Incremental hands -------------------------------------------------------------------
 * The encoders ask for the shanten of hundreds of hands that differ from one another by one or
 * two tiles (a discard, then each of the 34 draws).  A Hand keeps what riichi_code recomputes
 * from scratch -- each suit's base-5 key, the tile count, the kinds and pairs seven pairs needs,
 * the terminal kinds and terminal pairs thirteen orphans needs -- and moving one tile updates
 * them in a few operations instead of three loops over 34 counts.  hand_riichi() then reads
 * the same tables as standard_code(), so the answers are the same numbers. */

typedef struct {
    int c[34];
    long key[4];
    int tiles, kinds, pairs, term_kinds, term_pairs;
    unsigned long long held, paired; /* bit k: c[k] >= 1, c[k] >= 2 (the same counts as masks) */
} Hand;

/* Which key each kind belongs to, its place value in that key, and whether it is a terminal
 * or honour (filled once by init_kinds()). */
static int KIND_GROUP[34];
static long KIND_PLACE[34];
static int KIND_TERMINAL[34];

static void init_kinds(void) {
    for (int k = 0; k < 34; k++) {
        int digits = k < 27 ? 9 : 7;
        int pos = k < 27 ? k % 9 : k - 27;
        long place = 1;
        for (int i = pos + 1; i < digits; i++) place *= 5;
        KIND_GROUP[k] = k < 27 ? k / 9 : 3;
        KIND_PLACE[k] = place;
        KIND_TERMINAL[k] = 0;
    }
    for (int i = 0; i < 13; i++) KIND_TERMINAL[TERMINALS[i]] = 1;
}

static void hand_init(Hand *h, const int *c) {
    memset(h, 0, sizeof(*h));
    for (int k = 0; k < 34; k++) {
        int v = c[k];
        h->c[k] = v;
        h->key[KIND_GROUP[k]] += v * KIND_PLACE[k];
        h->tiles += v;
        h->kinds += v > 0;
        h->pairs += v >= 2;
        h->held |= (unsigned long long)(v > 0) << k;
        h->paired |= (unsigned long long)(v >= 2) << k;
        if (KIND_TERMINAL[k]) {
            h->term_kinds += v > 0;
            h->term_pairs += v >= 2;
        }
    }
}

/* Add d (+1 or -1) copies of kind k; the caller keeps every count within 0-4. */
static inline void hand_move(Hand *h, int k, int d) {
    int old = h->c[k], now = old + d;
    h->c[k] = now;
    h->key[KIND_GROUP[k]] += d * KIND_PLACE[k];
    h->tiles += d;
    h->kinds += (now > 0) - (old > 0);
    h->pairs += (now >= 2) - (old >= 2);
    unsigned long long bit = 1ULL << k;
    h->held = (h->held & ~bit) | ((unsigned long long)(now > 0) << k);
    h->paired = (h->paired & ~bit) | ((unsigned long long)(now >= 2) << k);
    if (KIND_TERMINAL[k]) {
        h->term_kinds += (now > 0) - (old > 0);
        h->term_pairs += (now >= 2) - (old >= 2);
    }
}

/* Standard-form shanten of the hand (no seven pairs / orphans), or FALLBACK. */
static inline int hand_standard(const Hand *h) {
    const uint8_t *suit = (const uint8_t *)suit_buf.buf;
    const uint8_t *honor = (const uint8_t *)honor_buf.buf;
    const int16_t *mp = (const int16_t *)mp_buf.buf;
    const int16_t *sh = (const int16_t *)sh_buf.buf;
    const int8_t *fin = (const int8_t *)final_buf.buf;
    int m = suit[h->key[0]], p = suit[h->key[1]], s = suit[h->key[2]], z = honor[h->key[3]];
    if (m == 255 || p == 255 || s == 255 || z == 255) return FALLBACK;
    int code = fin[(Py_ssize_t)mp[m * n_pin + p] * n_sh + sh[s * n_honor + z]];
    return code == invalid_code ? FALLBACK : code;
}

/* Riichi shanten of the hand (same numbers as riichi_code), or FALLBACK. */
static inline int hand_riichi(const Hand *h) {
    int code = hand_standard(h);
    if (code == FALLBACK) return FALLBACK;
    if (h->tiles >= 13) {
        int t = 6 - h->pairs + (h->kinds < 7 ? 7 - h->kinds : 0);
        if (t < code) code = t;
        t = 13 - h->term_kinds - (h->term_pairs > 0);
        if (t < code) code = t;
    }
    return code;
}

/* One entry of a draw row: the Riichi shanten of the hand ``h`` with one more ``k`` (held
 * ``h->c[k]`` times before), where ``d`` is the class of k's group with that copy, ``c`` the
 * four groups' classes without it and ``mpv``/``shv`` their two halves' combinations; seven
 * pairs and thirteen orphans count when the hand is closed.  FALLBACK if the tables have no
 * such hand. */
static inline int drawn_code(const Hand *h, const int *c, int mpv, int shv, int k, int d,
                             int closed) {
    const int16_t *mp = (const int16_t *)mp_buf.buf;
    const int16_t *sh = (const int16_t *)sh_buf.buf;
    const int8_t *fin = (const int8_t *)final_buf.buf;
    int g = KIND_GROUP[k], v = h->c[k];
    int x = mpv, y = shv;
    if (g == 0)
        x = mp[d * n_pin + c[1]];
    else if (g == 1)
        x = mp[c[0] * n_pin + d];
    else if (g == 2)
        y = sh[d * n_honor + c[3]];
    else
        y = sh[c[2] * n_honor + d];
    int code = fin[(Py_ssize_t)x * n_sh + y];
    if (code == invalid_code) return FALLBACK;
    if (closed) {
        int pairs = h->pairs + (v == 1), kinds = h->kinds + (v == 0);
        int t = 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
        if (t < code) code = t;
        int tk = h->term_kinds, tp = h->term_pairs;
        if (KIND_TERMINAL[k]) {
            tk += v == 0;
            tp += v == 1;
        }
        t = 13 - tk - (tp > 0);
        if (t < code) code = t;
    }
    return code;
}

/* Riichi shanten after drawing each kind: row[k] is what hand_riichi gives for the hand with one
 * more k (99 where four are held already).  A draw changes one suit's key only, so each entry
 * costs one pattern look-up and one combination instead of a whole hand's; the seven-pairs and
 * thirteen-orphans counts move as hand_move would move them.  Returns 0, or FALLBACK. */
static int hand_draw_row(const Hand *h, int *row) {
    const uint8_t *suit = (const uint8_t *)suit_buf.buf;
    const uint8_t *honor = (const uint8_t *)honor_buf.buf;
    const int16_t *mp = (const int16_t *)mp_buf.buf;
    const int16_t *sh = (const int16_t *)sh_buf.buf;
    int cls[4] = {suit[h->key[0]], suit[h->key[1]], suit[h->key[2]], honor[h->key[3]]};
    if (cls[0] == 255 || cls[1] == 255 || cls[2] == 255 || cls[3] == 255) return FALLBACK;
    int mpv = mp[cls[0] * n_pin + cls[1]], shv = sh[cls[2] * n_honor + cls[3]];
    int closed = h->tiles + 1 >= 13;
    for (int k = 0; k < 34; k++) {
        int v = h->c[k];
        if (v >= 4) {
            row[k] = 99;
            continue;
        }
        int g = KIND_GROUP[k];
        long key = h->key[g] + KIND_PLACE[k];
        int c2 = g < 3 ? suit[key] : honor[key];
        if (c2 == 255) return FALLBACK;
        int code = drawn_code(h, cls, mpv, shv, k, c2, closed);
        if (code == FALLBACK) return FALLBACK;
        row[k] = code;
    }
    return 0;
}

/* ------------------------------------------------------- handing the tables over */

/* The sizes the suit and honour pattern tables always have (5^9 and 5^7 one-byte entries). */
#define SUIT_PATTERNS 1953125
#define HONOR_PATTERNS 78125

/* Let go of the five pattern tables and of the two vector tables when given (NULL: the
 * caller holds none).  Only for tables taken by shanten_tables_take(). */
static void shanten_tables_release(Py_buffer *mpv, Py_buffer *shv) {
    PyBuffer_Release(&suit_buf);
    PyBuffer_Release(&honor_buf);
    PyBuffer_Release(&mp_buf);
    PyBuffer_Release(&sh_buf);
    PyBuffer_Release(&final_buf);
    if (mpv != NULL) PyBuffer_Release(mpv);
    if (shv != NULL) PyBuffer_Release(shv);
}

/* Every module's configure(suit, honor, mp_class, n_pin, sh_class, n_honor, final, n_sh,
 * invalid, mp_vectors, sh_vectors), the buffers tenpai.hand.accel.table_buffers() lists
 * (uint8 / uint8 / int16 / int16 / int8 C-contiguous pattern tables; the two vector tables
 * int16 rows of ten distances per combined class, entry 2 * sets + pair).  Takes the five
 * pattern tables into this header's buffers and the vector tables into *mpv and *shv (the
 * caller keeps them, or copies them out and lets them go), checks their sizes and sets the
 * column counts.  Returns 0, or -1 with an exception naming ``who`` and nothing held. */
static int shanten_tables_take(PyObject *args, const char *who, Py_buffer *mpv,
                               Py_buffer *shv) {
    PyObject *o[7];
    Py_ssize_t mp_cols, sh_cols, final_cols;
    int invalid;
    if (!PyArg_ParseTuple(args, "OOOnOnOniOO", &o[0], &o[1], &o[2], &mp_cols, &o[3], &sh_cols,
                          &o[4], &final_cols, &invalid, &o[5], &o[6]))
        return -1;
    Py_buffer *bufs[7] = {&suit_buf, &honor_buf, &mp_buf, &sh_buf, &final_buf, mpv, shv};
    for (int i = 0; i < 7; i++)
        if (PyObject_GetBuffer(o[i], bufs[i], PyBUF_C_CONTIGUOUS) < 0) {
            for (int j = 0; j < i; j++) PyBuffer_Release(bufs[j]);
            return -1;
        }
    if (suit_buf.len != SUIT_PATTERNS || honor_buf.len != HONOR_PATTERNS ||
        mpv->len % 20 != 0 || shv->len % 20 != 0) {
        shanten_tables_release(mpv, shv);
        PyErr_Format(PyExc_ValueError, "%s: unexpected table sizes", who);
        return -1;
    }
    n_pin = mp_cols;
    n_honor = sh_cols;
    n_sh = final_cols;
    invalid_code = invalid;
    return 0;
}

#endif /* TENPAI_SHANTEN_CORE_H */
