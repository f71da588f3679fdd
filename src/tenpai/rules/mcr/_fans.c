/* The MCR fan evaluator in C: the same readings, fan predicates and tie-breaks as the Python
 * classes in tenpai/rules/mcr (shapes.py, patterns.py, fans/, evaluate.py), which stay the
 * specification.  The declarative side of every fan -- its points, the shapes it scores in, its
 * gate and the fans it makes "not counted" -- is NOT written here: configure() receives it from
 * the Python classes, so only each fan's count predicate (fan_count below) is written twice.
 *
 * evaluate(ctx) reads an MCRContext-like object (the attributes concealed_counts, win_tile,
 * melds, self_drawn, seat_wind, prevalent_wind, last_tile, kong_replacement, robbing_kong,
 * last_copy, flowers; each meld's kind and base), checks it again (a context built around
 * MCRContext's own checks must not crash the interpreter), and returns an MCRResult built from
 * the FanHit objects handed over by configure(), None when the tiles do not win, or
 * NotImplemented when a case falls outside what this file covers (more readings than its
 * buffers hold), which sends the caller to the Python path.
 *
 * Keep the numbering in sync with shapes.py: STANDARD 0, SEVEN_PAIRS 1, SHIFTED_PAIRS 2,
 * ORPHANS 3, HONORS_KNITTED 4, KNITTED_STRAIGHT 5 (configure() receives the Shape members in
 * that order).
 *
 * The compiled MCR rollouts (_mcr_rollout.c) include this file with TENPAI_FANS_LIBRARY
 * defined: they score their wins with best_reading() and take configure() and fans_init()
 * too, so the fan count exists once in C; only the module table and PyInit__fans are left out.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#define ABI 1
#define NFANS 82 /* fan numbers 1..81; index 0 unused */
#define MAXHIT 8 /* FanHit objects prebuilt for counts 1..MAXHIT */
#define MAXREAD 48 /* standard readings kept; more -> NotImplemented */

enum { STANDARD, SEVEN_PAIRS, SHIFTED_PAIRS, ORPHANS, HONORS_KNITTED, KNITTED_STRAIGHT, NSHAPES };
enum { G_COMBOS = 1, G_PUNGS = 2, G_KONGS = 4 };
enum { M_CHOW, M_PUNG, M_EXPOSED_KONG, M_CONCEALED_KONG, M_PROMOTED_KONG };
enum { EDGE = 77, CLOSED = 78, SINGLE = 79 };
enum { WHITE = 31, GREEN = 32, RED = 33 };

/* ------------------------------------------------------------------------------------------
 * What configure() hands over.
 * ---------------------------------------------------------------------------------------- */

static int configured = 0;
static int fan_points[NFANS];
static unsigned fan_shapes[NFANS]; /* bit s: scores in shape s */
static unsigned fan_gate[NFANS];
static uint64_t fan_excl[NFANS][2]; /* bit n of the 128-bit mask: fan n not counted */
static PyObject *fan_cls[NFANS];
static PyObject *hit_obj[NFANS][MAXHIT + 1];
static PyObject *fanhit_type = NULL;
static PyObject *result_type = NULL;
static PyObject *shape_obj[NSHAPES];
static PyObject *input_error = NULL;
/* MCRResult's slot descriptors (fans, total, flowers, shape): filling them directly skips the
 * frozen dataclass's __init__, which costs more than the whole evaluation. */
static PyObject *result_slot[4];
/* Per shape and gates, the fans to scan in table order (0-terminated). */
static unsigned char scan[NSHAPES][8][NFANS];

/* MCRContext and Meld, and the slot offsets of the fields read here: for those exact classes a
 * field is one pointer read instead of an attribute look-up (a fifth of a call's time). */
enum { F_COUNTS, F_WIN, F_MELDS, F_SELF, F_SEAT, F_PREVALENT, F_LAST_TILE, F_REPL, F_ROB,
       F_LAST_COPY, F_FLOWERS, NCTX };
static PyTypeObject *ctx_type = NULL, *meld_type = NULL;
static Py_ssize_t ctx_off[NCTX], meld_off[2];
static PyObject *ctx_name[NCTX], *meld_name[2];

static PyObject *s_concealed_counts, *s_win_tile, *s_melds, *s_self_drawn, *s_seat_wind,
    *s_prevalent_wind, *s_last_tile, *s_kong_replacement, *s_robbing_kong, *s_last_copy,
    *s_flowers, *s_kind, *s_base;

/* ------------------------------------------------------------------------------------------
 * Tiles.
 * ---------------------------------------------------------------------------------------- */

static const int ORPHAN_KINDS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
static int knitted[6][9];

static void build_knitted(void) {
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                     {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int o = 0; o < 6; o++) {
        int n = 0, tiles[9];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) tiles[n++] = orders[o][i] * 9 + i + 3 * j;
        for (int a = 1; a < 9; a++) /* sorted, like patterns._knitted_straights */
            for (int b = a; b > 0 && tiles[b - 1] > tiles[b]; b--) {
                int t = tiles[b]; tiles[b] = tiles[b - 1]; tiles[b - 1] = t;
            }
        memcpy(knitted[o], tiles, sizeof tiles);
    }
}

/* patterns.canonical_key: characters, bamboo, dots, winds, then 中 发 白. */
static inline int ckey(int k) {
    static const int suit_rank[3] = {0, 2, 1};
    if (k < 27) return suit_rank[k / 9] * 9 + k % 9;
    if (k <= 30) return k;
    return k == RED ? 31 : k == GREEN ? 32 : 33;
}

static void sort_canonical(int *a, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && ckey(a[j - 1]) > ckey(a[j]); j--) {
            int t = a[j]; a[j] = a[j - 1]; a[j - 1] = t;
        }
}

/* ------------------------------------------------------------------------------------------
 * The context.
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    int counts[34]; /* concealed, winning tile included */
    int all[34];    /* with the melds, a kong as four */
    int win;
    int nmelds;
    int mkind[4], mbase[4];
    int self_drawn, seat, prevalent, last_tile, kong_repl, robbing, last_copy, flowers;
} Ctx;

/* patterns.TileFacts */
typedef struct {
    int nsuits, suit_mask, has_winds, has_dragons, all_honors, all_simples, all_terminals,
        all_toh, all_green, reversible, rank_bits, quads;
} Facts;

static uint64_t TERMINAL_MASK, SIMPLE_MASK, GREEN_MASK, REVERSIBLE_MASK;

static void build_masks(void) {
    static const int greens[] = {19, 20, 21, 23, 25, GREEN};
    static const int revs[] = {9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, WHITE};
    for (int k = 0; k < 27; k++) {
        if (k % 9 == 0 || k % 9 == 8) TERMINAL_MASK |= (uint64_t)1 << k;
        else SIMPLE_MASK |= (uint64_t)1 << k;
    }
    for (size_t i = 0; i < sizeof greens / sizeof *greens; i++) GREEN_MASK |= (uint64_t)1 << greens[i];
    for (size_t i = 0; i < sizeof revs / sizeof *revs; i++)
        REVERSIBLE_MASK |= (uint64_t)1 << revs[i];
}

static void tile_facts(const int *all, Facts *f) {
    uint64_t present = 0;
    for (int k = 0; k < 34; k++)
        if (all[k]) present |= (uint64_t)1 << k;
    const uint64_t honor = (uint64_t)0x7F << 27, wind = (uint64_t)0xF << 27,
                   dragon = (uint64_t)0x7 << 31;
    const uint64_t terminal = TERMINAL_MASK, simple = SIMPLE_MASK, green = GREEN_MASK,
                   reversible = REVERSIBLE_MASK;
    f->suit_mask = 0;
    for (int s = 0; s < 3; s++)
        if (present & ((uint64_t)0x1FF << (9 * s))) f->suit_mask |= 1 << s;
    f->nsuits = (f->suit_mask & 1) + (f->suit_mask >> 1 & 1) + (f->suit_mask >> 2 & 1);
    f->has_winds = (present & wind) != 0;
    f->has_dragons = (present & dragon) != 0;
    f->all_honors = !(present & ~honor);
    f->all_simples = !(present & ~simple);
    f->all_terminals = !(present & ~terminal);
    f->all_toh = !(present & simple);
    f->all_green = !(present & ~green);
    f->reversible = !(present & ~reversible);
    f->rank_bits = 0;
    if (!(present & honor)) {
        unsigned bits = (unsigned)((present | present >> 9 | present >> 18) & 0x1FF);
        f->rank_bits = (int)(bits << 1);
    }
    f->quads = 0;
    for (int k = 0; k < 34; k++) f->quads += all[k] == 4;
}

/* ------------------------------------------------------------------------------------------
 * Waits (patterns.standard_waits, seven_pairs_wait).
 * ---------------------------------------------------------------------------------------- */

static int suit_rec(int *w, int n, int i, int pair, int want_pair, int honors) {
    while (i < n && w[i] == 0) i++;
    if (i == n) return pair == want_pair;
    if (w[i] >= 3) {
        w[i] -= 3;
        int ok = suit_rec(w, n, i, pair, want_pair, honors);
        w[i] += 3;
        if (ok) return 1;
    }
    if (!pair && w[i] >= 2) {
        w[i] -= 2;
        int ok = suit_rec(w, n, i, 1, want_pair, honors);
        w[i] += 2;
        if (ok) return 1;
    }
    if (!honors && i + 2 < n && w[i + 1] && w[i + 2]) {
        w[i]--; w[i + 1]--; w[i + 2]--;
        int ok = suit_rec(w, n, i, pair, want_pair, honors);
        w[i]++; w[i + 1]++; w[i + 2]++;
        if (ok) return 1;
    }
    return 0;
}

/* patterns._suit_forms: 1 sets only, 2 sets plus one pair, 0 neither. */
static int suit_form(int *seg, int n, int honors) {
    int total = 0;
    for (int i = 0; i < n; i++) total += seg[i];
    if (total % 3 == 1) return 0;
    int want_pair = total % 3 == 2;
    if (!suit_rec(seg, n, 0, 0, want_pair, honors)) return 0;
    return want_pair ? 2 : 1;
}

static const int SEG_START[4] = {0, 9, 18, 27}, SEG_LEN[4] = {9, 9, 9, 7};

/* Bit mask (bit k = kind k) of the kinds completing ``standing`` into sets and a pair. */
static uint64_t standard_waits(const int *standing) {
    int w[34];
    memcpy(w, standing, sizeof w);
    int forms[4];
    for (int s = 0; s < 4; s++) {
        int any = 0;
        for (int i = 0; i < SEG_LEN[s]; i++) any |= w[SEG_START[s] + i];
        forms[s] = any ? suit_form(w + SEG_START[s], SEG_LEN[s], s == 3) : 1;
    }
    uint64_t out = 0;
    for (int s = 0; s < 4; s++) {
        int others_pairs = 0, bad = 0;
        for (int t = 0; t < 4; t++) {
            if (t == s) continue;
            if (!forms[t]) bad = 1;
            others_pairs += forms[t] == 2;
        }
        if (bad || others_pairs > 1) continue;
        int *seg = w + SEG_START[s], n = SEG_LEN[s], honors = s == 3;
        for (int i = 0; i < n; i++) {
            int near = seg[i];
            if (!honors)
                for (int j = i - 2; j <= i + 2; j++)
                    if (j >= 0 && j < n && seg[j]) near = 1;
            if (!near) continue;
            seg[i]++;
            int form = suit_form(seg, n, honors);
            seg[i]--;
            if (form && (form == 2) + others_pairs == 1) out |= (uint64_t)1 << (SEG_START[s] + i);
        }
    }
    return out;
}

static int seven_pairs_wait(const int *standing) {
    int pairs = 0;
    for (int k = 0; k < 34; k++) pairs += standing[k] / 2;
    if (pairs != 6) return -1;
    for (int k = 0; k < 34; k++)
        if (standing[k] % 2) return k;
    return -1;
}

/* shapes._unique_wait */
static int unique_wait(const Ctx *c) {
    int standing[34];
    memcpy(standing, c->counts, sizeof standing);
    standing[c->win]--;
    uint64_t waits = standard_waits(standing);
    if (!waits) return 0;
    if (c->nmelds == 0) {
        int extra = seven_pairs_wait(standing);
        if (extra >= 0) waits |= (uint64_t)1 << extra;
    }
    return (waits & (waits - 1)) == 0;
}

/* shapes._nine_gates */
static int nine_gates(const Ctx *c) {
    static const int gates[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
    if (c->nmelds) return 0;
    int standing[34];
    memcpy(standing, c->counts, sizeof standing);
    standing[c->win]--;
    for (int base = 0; base < 27; base += 9)
        if (!memcmp(standing + base, gates, sizeof gates)) return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------
 * Set combinations (patterns.chow_patterns, pung_patterns).
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    int fan[8], cnt[8], n;
} Combos;

static void combo_add(Combos *cb, int fan, int n) {
    for (int i = 0; i < cb->n; i++)
        if (cb->fan[i] == fan) { cb->cnt[i] += n; return; }
    cb->fan[cb->n] = fan;
    cb->cnt[cb->n++] = n;
}

static inline int combo_get(const Combos *cb, int fan) {
    for (int i = 0; i < cb->n; i++)
        if (cb->fan[i] == fan) return cb->cnt[i];
    return 0;
}

static int two_chows(int a, int b) {
    int sa = a / 9, ra = a % 9, sb = b / 9, rb = b % 9;
    if (sa != sb) return ra == rb ? 70 : 0;
    if (ra - rb == 3 || rb - ra == 3) return 71;
    if ((ra == 0 && rb == 6) || (ra == 6 && rb == 0)) return 72;
    if (ra == rb) return 69;
    return 0;
}

static int three_chows(int a, int b, int c) {
    int sa = a / 9, ra = a % 9, sb = b / 9, rb = b % 9, sc = c / 9, rc = c % 9;
    if (sa != sb && sa != sc && sb != sc) {
        int lo = ra, mid = rb, hi = rc, t;
        if (lo > mid) { t = lo; lo = mid; mid = t; }
        if (mid > hi) { t = mid; mid = hi; hi = t; }
        if (lo > mid) { t = lo; lo = mid; mid = t; }
        if (mid == lo + 1 && hi == mid + 1) return 50;
        if (ra == rb && rb == rc) return 41;
        if (lo == 0 && mid == 3 && hi == 6) return 39;
        return 0;
    }
    if (sa == sb && sb == sc) {
        if (rb == ra + 3 && rc == rb + 3) return 28;
        if ((rb == ra + 1 && rc == rb + 1) || (rb == ra + 2 && rc == rb + 2)) return 30;
        if (ra == rb && rb == rc) return 23;
    }
    return 0;
}

static int four_chows(int a, int b, int c, int d) {
    if (!(a / 9 == b / 9 && b / 9 == c / 9 && c / 9 == d / 9)) return 0;
    if (a == b && b == c && c == d) return 14;
    for (int step = 1; step <= 2; step++)
        if (b == a + step && c == b + step && d == c + step) return 16;
    return 0;
}

static int terminal_chows(const int *ch, int pair) {
    if (pair < 0 || pair >= 27 || pair % 9 != 4) return 0;
    int ps = pair / 9;
    for (int i = 0; i < 4; i++)
        if (ch[i] % 9 != 0 && ch[i] % 9 != 6) return 0;
    int all_same = 1, all_other = 1, lows = 0;
    for (int i = 0; i < 4; i++) {
        if (ch[i] / 9 != ps) all_same = 0;
        else all_other = 0;
        lows += ch[i] % 9 == 0;
    }
    if (all_same) return lows == 2 ? 13 : 0;
    if (all_other) {
        uint64_t got = 0, want = 0;
        for (int i = 0; i < 4; i++) got |= (uint64_t)1 << ch[i];
        for (int s = 0; s < 3; s++)
            if (s != ps) want |= (uint64_t)1 << (s * 9) | (uint64_t)1 << (s * 9 + 6);
        if (got == want) return 29;
    }
    return 0;
}

static const int EXTRA_PRIORITY[4] = {69, 70, 71, 72};

static int extra_chow(int a, int b, int c, int extra) {
    int f[3] = {two_chows(a, extra), two_chows(b, extra), two_chows(c, extra)};
    for (int p = 0; p < 4; p++)
        for (int i = 0; i < 3; i++)
            if (f[i] == EXTRA_PRIORITY[p]) return EXTRA_PRIORITY[p];
    return 0;
}

/* patterns._limit_pairs */
static void limit_pairs(const int *found, int nfound, int limit, Combos *cb) {
    int table[4] = {0, 0, 0, 0}, total = 0;
    for (int i = 0; i < nfound; i++)
        for (int p = 0; p < 4; p++)
            if (found[i] == EXTRA_PRIORITY[p]) { table[p]++; total++; }
    int keep = 1;
    while (total > limit && keep >= 0) {
        for (int p = 3; p >= 0; p--)
            while (table[p] > keep && total > limit) { table[p]--; total--; }
        keep--;
    }
    for (int p = 0; p < 4; p++)
        if (table[p]) combo_add(cb, EXTRA_PRIORITY[p], table[p]);
}

static const int TRIPLES[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};

static void chow_patterns(const int *ch, int n, int pair, Combos *cb) {
    if (n < 2) return;
    if (n == 4) {
        int special = terminal_chows(ch, pair);
        if (special) { combo_add(cb, special, 1); return; }
        int four = four_chows(ch[0], ch[1], ch[2], ch[3]);
        if (four) { combo_add(cb, four, 1); return; }
        for (int t = 0; t < 4; t++) {
            const int *q = TRIPLES[t];
            int fan = three_chows(ch[q[0]], ch[q[1]], ch[q[2]]);
            if (fan) {
                combo_add(cb, fan, 1);
                int extra = extra_chow(ch[q[0]], ch[q[1]], ch[q[2]], ch[q[3]]);
                if (extra) combo_add(cb, extra, 1);
                return;
            }
        }
        int found[6], nfound = 0, linked[4] = {0, 0, 0, 0};
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++) {
                int f = two_chows(ch[i], ch[j]);
                if (f) { found[nfound++] = f; linked[i] = linked[j] = 1; }
            }
        int lonely = 4 - linked[0] - linked[1] - linked[2] - linked[3];
        int limit = 3 - lonely;
        if (limit <= 0) return;
        limit_pairs(found, nfound, limit, cb);
        return;
    }
    if (n == 3) {
        int fan = three_chows(ch[0], ch[1], ch[2]);
        if (fan) { combo_add(cb, fan, 1); return; }
        int found[3], nfound = 0, f;
        if ((f = two_chows(ch[0], ch[1]))) found[nfound++] = f;
        if ((f = two_chows(ch[0], ch[2]))) found[nfound++] = f;
        if ((f = two_chows(ch[1], ch[2]))) found[nfound++] = f;
        limit_pairs(found, nfound, 2, cb);
        return;
    }
    int fan = two_chows(ch[0], ch[1]);
    if (fan) combo_add(cb, fan, 1);
}

static int two_pungs(int a, int b) {
    if (a < 27 && b < 27) return a % 9 == b % 9 ? 65 : 0;
    if (a >= WHITE && b >= WHITE) return 54;
    return 0;
}

static int three_pungs(int a, int b, int c) {
    if (a < 27 && b < 27 && c < 27) {
        int sa = a / 9, ra = a % 9, sb = b / 9, rb = b % 9, sc = c / 9, rc = c % 9;
        if (sa != sb && sa != sc && sb != sc) {
            int lo = ra, mid = rb, hi = rc, t;
            if (lo > mid) { t = lo; lo = mid; mid = t; }
            if (mid > hi) { t = mid; mid = hi; hi = t; }
            if (lo > mid) { t = lo; lo = mid; mid = t; }
            if (mid == lo + 1 && hi == mid + 1) return 42;
            if (ra == rb && rb == rc) return 32;
            return 0;
        }
        if (sa == sb && sb == sc && b == a + 1 && c == b + 1) return 24;
        return 0;
    }
    if (a >= 27 && a <= 30 && b >= 27 && b <= 30 && c >= 27 && c <= 30) return 38;
    if (a >= WHITE && b >= WHITE && c >= WHITE) return 2;
    return 0;
}

static void pung_patterns(const int *p, int n, Combos *cb) {
    if (n < 2) return;
    if (n == 4) {
        int s[4];
        memcpy(s, p, sizeof s);
        for (int i = 1; i < 4; i++) /* numeric order, as sorted(pungs) */
            for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
                int t = s[j]; s[j] = s[j - 1]; s[j - 1] = t;
            }
        if (s[3] < 27 && s[0] / 9 == s[3] / 9 && s[1] == s[0] + 1 && s[2] == s[1] + 1 &&
            s[3] == s[2] + 1) {
            combo_add(cb, 15, 1);
            return;
        }
        if (s[0] == 27 && s[1] == 28 && s[2] == 29 && s[3] == 30) {
            combo_add(cb, 1, 1);
            return;
        }
        for (int t = 0; t < 4; t++) {
            const int *q = TRIPLES[t];
            int fan = three_pungs(p[q[0]], p[q[1]], p[q[2]]);
            if (fan) {
                combo_add(cb, fan, 1);
                for (int o = 0; o < 3; o++) {
                    int extra = two_pungs(p[q[o]], p[q[3]]);
                    if (extra) { combo_add(cb, extra, 1); break; }
                }
                return;
            }
        }
    } else if (n == 3) {
        int fan = three_pungs(p[0], p[1], p[2]);
        if (fan) { combo_add(cb, fan, 1); return; }
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int fan = two_pungs(p[i], p[j]);
            if (fan) combo_add(cb, fan, 1);
        }
}

/* ------------------------------------------------------------------------------------------
 * A reading (shapes.HandView).
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    int shape;
    int chows[4], nchows, pungs[4], npungs, pair;
    int concealed_pungs, melded_kongs, concealed_kongs, exposed_melds;
    Combos combos;
    int wait, knitted, honors, nine_gates;
} View;

static void view_init(View *v, int shape, const Ctx *c) {
    memset(v, 0, sizeof *v);
    v->shape = shape;
    v->pair = -1;
    for (int i = 0; i < c->nmelds; i++) v->exposed_melds += c->mkind[i] != M_CONCEALED_KONG;
}

static void add_set(View *v, int kind, int chow, int concealed, int kong) {
    if (chow) { v->chows[v->nchows++] = kind; return; }
    v->pungs[v->npungs++] = kind;
    if (kong) {
        if (concealed) { v->concealed_kongs++; v->concealed_pungs++; }
        else v->melded_kongs++;
    } else if (concealed) {
        v->concealed_pungs++;
    }
}

static void add_meld(View *v, const Ctx *c, int i) {
    int k = c->mkind[i];
    add_set(v, c->mbase[i], k == M_CHOW, k == M_CONCEALED_KONG,
            k == M_EXPOSED_KONG || k == M_CONCEALED_KONG || k == M_PROMOTED_KONG);
}

static void view_finish(View *v) {
    sort_canonical(v->chows, v->nchows);
    sort_canonical(v->pungs, v->npungs);
    v->combos.n = 0;
    chow_patterns(v->chows, v->nchows, v->pair, &v->combos);
    pung_patterns(v->pungs, v->npungs, &v->combos);
}

static int wait_kind(int win, const int *chows, int n, int pair) {
    int edge = 0, closed = 0;
    for (int i = 0; i < n; i++) {
        int c = chows[i];
        if (win == c + 1) closed = 1;
        else if (win == c || win == c + 2) edge = 1;
    }
    if (edge) return EDGE;
    if (closed) return CLOSED;
    return pair == win ? SINGLE : 0;
}

/* ------------------------------------------------------------------------------------------
 * The fan predicates: one case per fan, the count its Python class's ``count`` returns.
 * ---------------------------------------------------------------------------------------- */

static inline int ranks_within(const Facts *f, int lo, int hi) {
    int mask = (1 << hi) - (1 << lo);
    return f->rank_bits && !(f->rank_bits & ~mask);
}

static int fan_count(int fan, const View *v, const Ctx *c, const Facts *f) {
    const Combos *cb = &v->combos;
    switch (fan) {
    case 1: case 2: case 13: case 14: case 15: case 16: case 23: case 24: case 28: case 29:
    case 30: case 32: case 38: case 39: case 41: case 42: case 50: case 54: case 65: case 69:
    case 70: case 71: case 72:
        return combo_get(cb, fan);
    case 3: return f->all_green;
    case 4: return v->nine_gates;
    case 5: return v->melded_kongs + v->concealed_kongs == 4;
    case 6: case 7: case 19: case 34: return 1;
    case 8: return f->all_terminals;
    case 9: return combo_get(cb, 38) > 0 && v->pair >= 27 && v->pair <= 30;
    case 10: return combo_get(cb, 54) > 0 && v->pair >= WHITE;
    case 11: return f->all_honors;
    case 12: return v->concealed_pungs == 4;
    case 17: return v->melded_kongs + v->concealed_kongs == 3;
    case 18: return f->all_toh;
    case 20: return v->honors == 7;
    case 21: {
        if (v->npungs != 4) return 0;
        for (int i = 0; i <= 4; i++) {
            int k = i < 4 ? v->pungs[i] : v->pair;
            int r = ((k % 9) + 9) % 9;
            if (!(k < 27 && (r == 1 || r == 3 || r == 5 || r == 7))) return 0;
        }
        return 1;
    }
    case 22: return f->nsuits == 1 && !f->has_winds && !f->has_dragons;
    case 25: return ranks_within(f, 7, 10);
    case 26: return ranks_within(f, 4, 7);
    case 27: return ranks_within(f, 1, 4);
    case 31: {
        if (!(v->pair >= 0 && v->pair < 27 && v->pair % 9 == 4)) return 0;
        for (int i = 0; i < v->nchows; i++) {
            int r = v->chows[i] % 9;
            if (r < 2 || r > 4) return 0;
        }
        for (int i = 0; i < v->npungs; i++)
            if (!(v->pungs[i] < 27 && v->pungs[i] % 9 == 4)) return 0;
        return 1;
    }
    case 33: return v->concealed_pungs == 3;
    case 35: return v->knitted;
    case 36: return ranks_within(f, 6, 10);
    case 37: return ranks_within(f, 1, 5);
    case 40: return f->reversible;
    case 43: return 0;
    case 44: return c->last_tile && c->self_drawn;
    case 45: return c->last_tile && !c->self_drawn;
    case 46: return c->kong_repl;
    case 47: return c->robbing;
    case 48: return v->npungs == 4;
    case 49: return f->nsuits == 1 && (f->has_winds || f->has_dragons);
    case 51: return f->nsuits == 3 && f->has_winds && f->has_dragons;
    case 52: return v->exposed_melds == 4 && !c->self_drawn;
    case 53: return v->concealed_kongs >= 2;
    case 55: {
        /* Python: pair >= 27 or pair % 9 in (0, 8), with Python's modulo for -1. */
        int pr = ((v->pair % 9) + 9) % 9;
        if (!(v->pair >= 27 || pr == 0 || pr == 8)) return 0;
        for (int i = 0; i < v->nchows; i++)
            if (v->chows[i] % 9 != 0 && v->chows[i] % 9 != 6) return 0;
        for (int i = 0; i < v->npungs; i++) {
            int p = v->pungs[i];
            if (!(p >= 27 || p % 9 == 0 || p % 9 == 8)) return 0;
        }
        return 1;
    }
    case 56: return v->exposed_melds == 0 && c->self_drawn;
    case 57: return v->melded_kongs >= 2;
    case 58: return c->last_copy;
    case 59: {
        int n = 0;
        for (int i = 0; i < v->npungs; i++) n += v->pungs[i] >= WHITE;
        return n;
    }
    case 60: case 61: {
        int want = 27 + (fan == 60 ? c->prevalent : c->seat);
        for (int i = 0; i < v->npungs; i++)
            if (v->pungs[i] == want) return 1;
        return 0;
    }
    case 62: return v->exposed_melds == 0 && !c->self_drawn;
    case 63: return v->npungs == 0 && v->pair >= 0 && v->pair < 27;
    case 64: {
        int n = f->quads - v->melded_kongs - v->concealed_kongs;
        return n > 0 ? n : 0;
    }
    case 66: return v->concealed_pungs == 2;
    case 67: return v->concealed_kongs >= 1;
    case 68: return f->all_simples;
    case 73: {
        int three_winds = combo_get(cb, 38) > 0, n = 0;
        for (int i = 0; i < v->npungs; i++) {
            int p = v->pungs[i];
            if (p < 27) n += p % 9 == 0 || p % 9 == 8;
            else if (p < WHITE && !three_winds && p != 27 + c->prevalent && p != 27 + c->seat)
                n++;
        }
        n -= v->nine_gates;
        return n > 0 ? n : 0;
    }
    case 74: return v->melded_kongs >= 1;
    case 75: return f->nsuits == 2;
    case 76: return !f->has_winds && !f->has_dragons;
    case 77: case 78: case 79: return v->wait == fan;
    case 80: return c->self_drawn;
    case 81: return c->flowers;
    }
    return -1; /* a fan number this file does not know: configure() refuses it */
}

/* evaluate._score */
typedef struct {
    int fan[NFANS], cnt[NFANS], n, total;
} Hits;

static void score(const View *v, const Ctx *c, const Facts *f, Hits *h) {
    uint64_t ex0 = 0, ex1 = 0;
    int gates = (v->combos.n ? G_COMBOS : 0) | (v->npungs ? G_PUNGS : 0) |
                (v->melded_kongs || v->concealed_kongs ? G_KONGS : 0);
    h->n = 0;
    h->total = 0;
    for (const unsigned char *p = scan[v->shape][gates]; *p; p++) {
        int fan = *p;
        if (fan < 64 ? ex0 >> fan & 1 : ex1 >> (fan - 64) & 1) continue;
        int n = fan_count(fan, v, c, f);
        if (n > 0) {
            h->fan[h->n] = fan;
            h->cnt[h->n++] = n;
            h->total += fan_points[fan] * n;
            ex0 |= fan_excl[fan][0];
            ex1 |= fan_excl[fan][1];
        }
    }
    if (!h->n) {
        h->fan[0] = 43;
        h->cnt[0] = 1;
        h->n = 1;
        h->total = fan_points[43];
    }
}

/* ------------------------------------------------------------------------------------------
 * Readings (shapes.readings) and the choice of the best one (evaluate._evaluate).
 * ---------------------------------------------------------------------------------------- */

typedef struct {
    int pair, n;
    int kind[4], tile[4]; /* kind 1 = chow (SEQUENCE), 0 = pung, sorted by (ckey, is_chow) */
} Dec;

typedef struct {
    Dec d[MAXREAD];
    int n, overflow;
    int groups_kind[4], groups_tile[4], ng;
} Decs;

static void record_dec(Decs *out, int pair) {
    if (out->n >= MAXREAD) { out->overflow = 1; return; }
    Dec *d = &out->d[out->n];
    d->pair = pair;
    d->n = out->ng;
    for (int i = 0; i < out->ng; i++) { d->kind[i] = out->groups_kind[i]; d->tile[i] = out->groups_tile[i]; }
    for (int i = 1; i < d->n; i++)
        for (int j = i; j > 0; j--) {
            int ka = ckey(d->tile[j - 1]) * 2 + d->kind[j - 1], kb = ckey(d->tile[j]) * 2 + d->kind[j];
            if (ka <= kb) break;
            int t = d->tile[j]; d->tile[j] = d->tile[j - 1]; d->tile[j - 1] = t;
            t = d->kind[j]; d->kind[j] = d->kind[j - 1]; d->kind[j - 1] = t;
        }
    for (int e = 0; e < out->n; e++) { /* drop a reading already found */
        const Dec *o = &out->d[e];
        if (o->pair == d->pair && o->n == d->n && !memcmp(o->kind, d->kind, sizeof(int) * d->n) &&
            !memcmp(o->tile, d->tile, sizeof(int) * d->n))
            return;
    }
    out->n++;
}

/* Every reading of the concealed counts as sets plus exactly one pair. */
static void decompose(int *w, int i, int pair, Decs *out) {
    while (i < 34 && w[i] == 0) i++;
    if (i == 34) {
        if (pair >= 0) record_dec(out, pair);
        return;
    }
    if (out->ng < 4 && w[i] >= 3) {
        w[i] -= 3;
        out->groups_kind[out->ng] = 0;
        out->groups_tile[out->ng++] = i;
        decompose(w, i, pair, out);
        out->ng--;
        w[i] += 3;
    }
    if (pair < 0 && w[i] >= 2) {
        w[i] -= 2;
        decompose(w, i, i, out);
        w[i] += 2;
    }
    if (out->ng < 4 && i < 27 && i % 9 <= 6 && w[i + 1] && w[i + 2]) {
        w[i]--; w[i + 1]--; w[i + 2]--;
        out->groups_kind[out->ng] = 1;
        out->groups_tile[out->ng++] = i;
        decompose(w, i, pair, out);
        out->ng--;
        w[i]++; w[i + 1]++; w[i + 2]++;
    }
}

static int dec_cmp(const Dec *a, const Dec *b) {
    for (int i = 0; i < a->n && i < b->n; i++) {
        int ka = ckey(a->tile[i]), kb = ckey(b->tile[i]);
        if (ka != kb) return ka < kb ? -1 : 1;
        if (a->kind[i] != b->kind[i]) return a->kind[i] < b->kind[i] ? -1 : 1;
    }
    return (a->n > b->n) - (a->n < b->n);
}

typedef struct {
    Hits best;
    int have, shape, seven_pairs;
} Best;

static void consider(Best *b, const View *v, const Ctx *c, const Facts *f) {
    Hits h;
    score(v, c, f, &h);
    if (v->shape == SEVEN_PAIRS) b->seven_pairs = 1;
    int take = !b->have || h.total > b->best.total;
    if (!take && h.total == b->best.total) {
        take = b->seven_pairs;
        for (int i = 0; i < h.n && !take; i++) take = h.fan[i] == 23 || h.fan[i] == 32;
    }
    if (take) {
        b->best.n = h.n;
        b->best.total = h.total;
        memcpy(b->best.fan, h.fan, sizeof(int) * h.n);
        memcpy(b->best.cnt, h.cnt, sizeof(int) * h.n);
        b->have = 1;
        b->shape = v->shape;
    }
}

/* shapes._knitted_straight: 1 = a knitted reading was scored, 0 = none (try the others). */
static int knitted_reading(const Ctx *c, const Facts *f, Best *b, int *overflow) {
    int s = -1;
    for (int o = 0; o < 6 && s < 0; o++) {
        int all = 1;
        for (int i = 0; i < 9; i++)
            if (!c->counts[knitted[o][i]]) { all = 0; break; }
        if (all) s = o;
    }
    if (s < 0) return 0;
    int rest[34];
    memcpy(rest, c->counts, sizeof rest);
    for (int i = 0; i < 9; i++) rest[knitted[s][i]]--;
    View v;
    view_init(&v, KNITTED_STRAIGHT, c);
    v.knitted = 1;
    if (c->nmelds) {
        int pair = -1;
        for (int k = 0; k < 34; k++)
            if (rest[k] == 2) { pair = k; break; }
        if (pair < 0) return 0;
        add_meld(&v, c, 0);
        v.pair = pair;
        if (c->counts[c->win] > 1) v.wait = SINGLE;
    } else {
        Decs decs, *d = &decs;
        d->n = d->overflow = d->ng = 0;
        int w[34];
        memcpy(w, rest, sizeof w);
        decompose(w, 0, -1, d);
        if (d->overflow) { *overflow = 1; return 1; }
        if (d->n != 1 || d->d[0].n != 1) return 0;
        v.pair = d->d[0].pair;
        add_set(&v, d->d[0].tile[0], d->d[0].kind[0] == 1, 1, 0);
        if (rest[c->win]) {
            rest[c->win]--;
            uint64_t waits = standard_waits(rest);
            if (waits && !(waits & (waits - 1))) v.wait = wait_kind(c->win, v.chows, v.nchows, v.pair);
        }
    }
    view_finish(&v);
    consider(b, &v, c, f);
    return 1;
}

/* shapes._special_shape: the shape number, or -1. */
static int special_shape(const Ctx *c, View *v) {
    const int *counts = c->counts;
    int even = 1, maxc = 0;
    for (int k = 0; k < 34; k++) {
        if (counts[k] % 2) even = 0;
        if (counts[k] > maxc) maxc = counts[k];
    }
    if (even) {
        int present[34], np = 0;
        for (int k = 0; k < 34; k++)
            if (counts[k]) present[np++] = k;
        int shifted = np == 7 && present[0] < 27 && present[6] - present[0] == 6 &&
                      present[0] / 9 == present[6] / 9;
        view_init(v, shifted ? SHIFTED_PAIRS : SEVEN_PAIRS, c);
        return v->shape;
    }
    int all = 1, sum = 0;
    for (int i = 0; i < 13; i++) {
        if (!counts[ORPHAN_KINDS[i]]) all = 0;
        sum += counts[ORPHAN_KINDS[i]];
    }
    if (all && sum == 14) {
        view_init(v, ORPHANS, c);
        return ORPHANS;
    }
    if (maxc == 1) {
        int numbered = 0, honors = 0;
        uint64_t mask = 0;
        for (int k = 0; k < 27; k++)
            if (counts[k]) { numbered++; mask |= (uint64_t)1 << k; }
        for (int k = 27; k < 34; k++) honors += counts[k];
        if (numbered >= 7 && numbered <= 9) {
            for (int o = 0; o < 6; o++) {
                uint64_t straight = 0;
                for (int i = 0; i < 9; i++) straight |= (uint64_t)1 << knitted[o][i];
                if (!(mask & ~straight)) {
                    view_init(v, HONORS_KNITTED, c);
                    v->honors = honors;
                    v->knitted = numbered == 9;
                    return HONORS_KNITTED;
                }
            }
        }
    }
    return -1;
}

/* 1 = best filled (a win), 0 = no reading, -1 = not covered (overflow). */
static int best_reading(const Ctx *c, Best *b) {
    Facts f;
    tile_facts(c->all, &f);
    b->have = 0;
    b->seven_pairs = 0;
    int overflow = 0;
    if (c->nmelds <= 1 && knitted_reading(c, &f, b, &overflow)) return overflow ? -1 : 1;
    if (c->nmelds == 0) {
        View v;
        int shape = special_shape(c, &v);
        if (shape >= 0) {
            view_finish(&v);
            consider(b, &v, c, &f);
            if (shape != SEVEN_PAIRS) return 1;
        }
    }
    Decs decs, *d = &decs;
    d->n = d->overflow = d->ng = 0;
    int w[34];
    memcpy(w, c->counts, sizeof w);
    decompose(w, 0, -1, d);
    if (d->overflow) return -1;
    /* canonical order of the readings (their concealed sets) */
    int order[MAXREAD];
    for (int i = 0; i < d->n; i++) {
        order[i] = i;
        for (int j = i; j > 0 && dec_cmp(&d->d[order[j - 1]], &d->d[order[j]]) > 0; j--) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    }
    int gates = d->n ? nine_gates(c) : 0;
    int unique = -1;
    for (int r = 0; r < d->n; r++) {
        const Dec *dec = &d->d[order[r]];
        View v;
        view_init(&v, STANDARD, c);
        int cchows[4], ncc = 0, win_in_chow = 0, win_pung = 0;
        for (int g = 0; g < dec->n; g++) {
            int chow = dec->kind[g] == 1, t = dec->tile[g];
            add_set(&v, t, chow, 1, 0);
            if (chow) {
                cchows[ncc++] = t;
                if (t <= c->win && c->win <= t + 2) win_in_chow = 1;
            } else if (t == c->win) {
                win_pung = 1;
            }
        }
        for (int m = 0; m < c->nmelds; m++) add_meld(&v, c, m);
        v.pair = dec->pair;
        if (!c->self_drawn && c->counts[c->win] >= 3 && !win_in_chow && win_pung)
            v.concealed_pungs--; /* a pung completed by a discard is exposed */
        int wait = wait_kind(c->win, cchows, ncc, dec->pair);
        if (wait) {
            if (unique < 0) unique = unique_wait(c);
            if (unique) v.wait = wait;
        }
        v.nine_gates = gates;
        view_finish(&v);
        consider(b, &v, c, &f);
    }
    return b->have ? 1 : 0;
}

/* ------------------------------------------------------------------------------------------
 * Reading the context from Python, checking it, building the result.
 * ---------------------------------------------------------------------------------------- */

/* A new reference to a field: the slot itself when ``off`` >= 0 and it is set, else the
 * ordinary attribute look-up (which also raises the ordinary errors). */
static inline PyObject *field(PyObject *obj, PyObject *name, Py_ssize_t off) {
    if (off >= 0) {
        PyObject *v = *(PyObject **)((char *)obj + off);
        if (v) {
            Py_INCREF(v);
            return v;
        }
    }
    return PyObject_GetAttr(obj, name);
}

static int bad(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, ap);
    va_end(ap);
    if (msg) {
        PyErr_SetObject(input_error, msg);
        Py_DECREF(msg);
    }
    return -1;
}

/* An int attribute in [lo, hi]; -1 with an exception set otherwise. */
static int int_attr(PyObject *obj, PyObject *name, Py_ssize_t off, long lo, long hi,
                    long *out) {
    PyObject *v = field(obj, name, off);
    if (!v) return -1;
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return bad("MCR context: %U is not an integer", name);
    }
    if (x < lo || x > hi) return bad("MCR context: %U = %ld is outside %ld-%ld", name, x, lo, hi);
    *out = x;
    return 0;
}

static int bool_attr(PyObject *obj, PyObject *name, Py_ssize_t off, int *out) {
    PyObject *v = field(obj, name, off);
    if (!v) return -1;
    int x = PyObject_IsTrue(v);
    Py_DECREF(v);
    if (x < 0) return -1;
    *out = x;
    return 0;
}

static const int TILE_KIND[37] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                  13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
                                  26, 27, 28, 29, 30, 31, 32, 33, 4,  13, 22};

static int meld_kind_code(PyObject *kind) {
    static const char *names[5] = {"chow", "pung", "exposed_kong", "concealed_kong",
                                   "promoted_kong"};
    if (!PyUnicode_Check(kind)) return -1;
    for (int i = 0; i < 5; i++)
        if (PyUnicode_CompareWithASCIIString(kind, names[i]) == 0) return i;
    return -1;
}

static int read_ctx(PyObject *obj, Ctx *c) {
    memset(c, 0, sizeof *c);
    Py_ssize_t off[NCTX];
    int fast = Py_TYPE(obj) == ctx_type;
    for (int i = 0; i < NCTX; i++) off[i] = fast ? ctx_off[i] : -1;
    PyObject *counts = field(obj, s_concealed_counts, off[F_COUNTS]);
    if (!counts) return -1;
    PyObject *seq = PySequence_Fast(counts, "MCR context: concealed_counts is not a sequence");
    Py_DECREF(counts);
    if (!seq) {
        PyErr_Clear();
        return bad("MCR context: concealed_counts is not a sequence");
    }
    if (PySequence_Fast_GET_SIZE(seq) != 34) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        Py_DECREF(seq);
        return bad("MCR context: concealed_counts has %zd entries, not 34", n);
    }
    int concealed = 0;
    for (int k = 0; k < 34; k++) {
        long x = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (x == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_DECREF(seq);
            return bad("MCR context: concealed_counts[%d] is not an integer", k);
        }
        if (x < 0 || x > 4) {
            Py_DECREF(seq);
            return bad("MCR context: concealed_counts[%d] = %ld, not 0-4", k, x);
        }
        c->counts[k] = c->all[k] = (int)x;
        concealed += (int)x;
    }
    Py_DECREF(seq);

    PyObject *melds = field(obj, s_melds, off[F_MELDS]);
    if (!melds) return -1;
    seq = PySequence_Fast(melds, "");
    Py_DECREF(melds);
    if (!seq) {
        PyErr_Clear();
        return bad("MCR context: melds is not a sequence");
    }
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(seq);
    if (nm > 4) {
        Py_DECREF(seq);
        return bad("MCR context: %zd melds, at most 4 fit", nm);
    }
    c->nmelds = (int)nm;
    for (int i = 0; i < c->nmelds; i++) {
        PyObject *m = PySequence_Fast_GET_ITEM(seq, i);
        int mfast = Py_TYPE(m) == meld_type;
        PyObject *kind = field(m, s_kind, mfast ? meld_off[0] : -1);
        if (!kind) { Py_DECREF(seq); return -1; }
        int code = meld_kind_code(kind);
        Py_DECREF(kind);
        long base;
        if (code < 0) { Py_DECREF(seq); return bad("MCR context: melds[%d] has an unknown kind", i); }
        if (int_attr(m, s_base, mfast ? meld_off[1] : -1, 0, 33, &base) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        if (code == M_CHOW && (base >= 27 || base % 9 > 6)) {
            Py_DECREF(seq);
            return bad("MCR context: melds[%d] is a chow from %ld, which cannot start one", i, base);
        }
        c->mkind[i] = code;
        c->mbase[i] = (int)base;
        if (code == M_CHOW) {
            c->all[base]++; c->all[base + 1]++; c->all[base + 2]++;
        } else {
            c->all[base] += code == M_PUNG ? 3 : 4;
        }
    }
    Py_DECREF(seq);
    if (concealed != 14 - 3 * c->nmelds)
        return bad("MCR context: %d concealed tiles with %d melds (a win keeps %d)", concealed,
                   c->nmelds, 14 - 3 * c->nmelds);
    for (int k = 0; k < 34; k++)
        if (c->all[k] > 4) return bad("MCR context: %d copies of kind %d", c->all[k], k);
    long x;
    if (int_attr(obj, s_win_tile, off[F_WIN], 0, 36, &x) < 0) return -1;
    c->win = TILE_KIND[x];
    if (!c->counts[c->win]) return bad("MCR context: the winning tile is not among the concealed tiles");
    if (int_attr(obj, s_seat_wind, off[F_SEAT], 0, 3, &x) < 0) return -1;
    c->seat = (int)x;
    if (int_attr(obj, s_prevalent_wind, off[F_PREVALENT], 0, 3, &x) < 0) return -1;
    c->prevalent = (int)x;
    if (int_attr(obj, s_flowers, off[F_FLOWERS], 0, 8, &x) < 0) return -1;
    c->flowers = (int)x;
    if (bool_attr(obj, s_self_drawn, off[F_SELF], &c->self_drawn) < 0 ||
        bool_attr(obj, s_last_tile, off[F_LAST_TILE], &c->last_tile) < 0 ||
        bool_attr(obj, s_kong_replacement, off[F_REPL], &c->kong_repl) < 0 ||
        bool_attr(obj, s_robbing_kong, off[F_ROB], &c->robbing) < 0 ||
        bool_attr(obj, s_last_copy, off[F_LAST_COPY], &c->last_copy) < 0)
        return -1;
    return 0;
}

static PyObject *hit(int fan, int n) {
    if (n <= MAXHIT) {
        Py_INCREF(hit_obj[fan][n]);
        return hit_obj[fan][n];
    }
    PyObject *count = PyLong_FromLong(n);
    if (!count) return NULL;
    PyObject *args[2] = {fan_cls[fan], count};
    PyObject *out = PyObject_Vectorcall(fanhit_type, args, 2, NULL);
    Py_DECREF(count);
    return out;
}

static PyObject *evaluate(PyObject *self, PyObject *ctx) {
    (void)self;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "tenpai.rules.mcr._fans: configure() first");
        return NULL;
    }
    Ctx c;
    if (read_ctx(ctx, &c) < 0) return NULL;
    Best b;
    int got = best_reading(&c, &b);
    if (got < 0) Py_RETURN_NOTIMPLEMENTED;
    if (got == 0) Py_RETURN_NONE;
    int n = b.best.n + (c.flowers ? 1 : 0);
    PyObject *fans = PyTuple_New(n);
    if (!fans) return NULL;
    for (int i = 0; i < b.best.n; i++) {
        PyObject *h = hit(b.best.fan[i], b.best.cnt[i]);
        if (!h) { Py_DECREF(fans); return NULL; }
        PyTuple_SET_ITEM(fans, i, h);
    }
    if (c.flowers) {
        PyObject *h = hit(81, c.flowers);
        if (!h) { Py_DECREF(fans); return NULL; }
        PyTuple_SET_ITEM(fans, n - 1, h);
    }
    PyObject *total = PyLong_FromLong(b.best.total + c.flowers);
    PyObject *flowers = PyLong_FromLong(c.flowers);
    if (!total || !flowers) {
        Py_DECREF(fans); Py_XDECREF(total); Py_XDECREF(flowers);
        return NULL;
    }
    PyObject *values[4] = {fans, total, flowers, shape_obj[b.shape]};
    PyTypeObject *rt = (PyTypeObject *)result_type;
    PyObject *out = rt->tp_alloc(rt, 0);
    for (int i = 0; out && i < 4; i++)
        if (Py_TYPE(result_slot[i])->tp_descr_set(result_slot[i], out, values[i]) < 0)
            Py_CLEAR(out);
    Py_DECREF(fans);
    Py_DECREF(total);
    Py_DECREF(flowers);
    return out;
}

/* Offsets of the object slots ``names`` of class ``type`` (all -1 when ``type`` is NULL or None,
 * or when one of them is not a plain object slot). */
static int slot_offsets(PyObject *type, PyObject **names, int n, Py_ssize_t *out) {
    for (int i = 0; i < n; i++) out[i] = -1;
    if (type == NULL || type == Py_None) return 0;
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "configure: expected a class");
        return -1;
    }
    Py_ssize_t got[NCTX];
    for (int i = 0; i < n; i++) {
        PyObject *d = PyDict_GetItem(((PyTypeObject *)type)->tp_dict, names[i]);
        if (!d || Py_TYPE(d) != &PyMemberDescr_Type) return 0;
        PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY)) return 0;
        got[i] = m->offset;
    }
    for (int i = 0; i < n; i++) out[i] = got[i];
    return 0;
}

/* configure(fans, fanhit_type, result_type, shapes, input_error[, context_type, meld_type])
 *   fans: a sequence of (number, points, shape bits, gate bits, exclude mask, class)
 *   shapes: the Shape members in this file's order. */
static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *fans, *fht, *rt, *shapes, *err, *ctxt = NULL, *meldt = NULL;
    if (!PyArg_ParseTuple(args, "OOOOO|OO", &fans, &fht, &rt, &shapes, &err, &ctxt, &meldt))
        return NULL;
    /* The slot offsets of MCRContext and Meld (optional: without them every field is an
     * attribute look-up). */
    Py_ssize_t coff[NCTX], moff[2];
    if (slot_offsets(ctxt, ctx_name, NCTX, coff) < 0 || slot_offsets(meldt, meld_name, 2, moff) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(fans, "configure: fans must be a sequence");
    if (!seq) return NULL;
    PyObject *sh = PySequence_Fast(shapes, "configure: shapes must be a sequence");
    if (!sh) { Py_DECREF(seq); return NULL; }
    if (PySequence_Fast_GET_SIZE(sh) != NSHAPES) {
        Py_DECREF(seq); Py_DECREF(sh);
        PyErr_SetString(PyExc_ValueError, "configure: expected 6 shapes");
        return NULL;
    }
    int seen[NFANS] = {0};
    int points[NFANS] = {0};
    unsigned shp[NFANS] = {0}, gate[NFANS] = {0};
    uint64_t excl[NFANS][2];
    memset(excl, 0, sizeof excl);
    PyObject *cls[NFANS] = {0};
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        int num, pts;
        unsigned sbits, gbits;
        PyObject *mask, *klass;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiIIOO", &num, &pts, &sbits,
                              &gbits, &mask, &klass)) {
            Py_DECREF(seq); Py_DECREF(sh);
            return NULL;
        }
        if (num < 1 || num >= NFANS || seen[num]) {
            Py_DECREF(seq); Py_DECREF(sh);
            PyErr_Format(PyExc_ValueError, "configure: bad or repeated fan number %d", num);
            return NULL;
        }
        Ctx dc;
        View dv;
        Facts df;
        memset(&dc, 0, sizeof dc);
        memset(&dv, 0, sizeof dv);
        memset(&df, 0, sizeof df);
        if (fan_count(num, &dv, &dc, &df) < 0) {
            Py_DECREF(seq); Py_DECREF(sh);
            PyErr_Format(PyExc_ValueError, "configure: fan %d has no C predicate", num);
            return NULL;
        }
        uint64_t w[2] = {0, 0};
        for (int part = 0; part < 2; part++) {
            PyObject *shift = PyLong_FromLong(64 * part);
            PyObject *shifted = shift ? PyNumber_Rshift(mask, shift) : NULL;
            Py_XDECREF(shift);
            if (!shifted) { Py_DECREF(seq); Py_DECREF(sh); return NULL; }
            w[part] = PyLong_AsUnsignedLongLongMask(shifted);
            Py_DECREF(shifted);
            if (PyErr_Occurred()) { Py_DECREF(seq); Py_DECREF(sh); return NULL; }
        }
        seen[num] = 1;
        points[num] = pts;
        shp[num] = sbits;
        gate[num] = gbits;
        excl[num][0] = w[0];
        excl[num][1] = w[1];
        cls[num] = klass;
    }
    for (int f = 1; f < NFANS; f++)
        if (!seen[f]) {
            Py_DECREF(seq); Py_DECREF(sh);
            PyErr_Format(PyExc_ValueError, "configure: fan %d missing", f);
            return NULL;
        }
    /* FanHit objects for every fan and the counts it can show. */
    PyObject *hits[NFANS][MAXHIT + 1];
    memset(hits, 0, sizeof hits);
    for (int f = 1; f < NFANS; f++)
        for (int k = 1; k <= MAXHIT; k++) {
            PyObject *count = PyLong_FromLong(k);
            PyObject *a[2] = {cls[f], count};
            hits[f][k] = count ? PyObject_Vectorcall(fht, a, 2, NULL) : NULL;
            Py_XDECREF(count);
            if (!hits[f][k]) {
                for (int g = 1; g <= f; g++)
                    for (int j = 1; j <= MAXHIT; j++) Py_XDECREF(hits[g][j]);
                Py_DECREF(seq); Py_DECREF(sh);
                return NULL;
            }
        }
    /* Swap the new configuration in (references to the old one are dropped). */
    for (int f = 1; f < NFANS; f++) {
        for (int k = 1; k <= MAXHIT; k++) {
            Py_XDECREF(hit_obj[f][k]);
            hit_obj[f][k] = hits[f][k];
        }
        Py_XDECREF(fan_cls[f]);
        Py_INCREF(cls[f]);
        fan_cls[f] = cls[f];
        fan_points[f] = points[f];
        fan_shapes[f] = shp[f];
        fan_gate[f] = gate[f];
        fan_excl[f][0] = excl[f][0];
        fan_excl[f][1] = excl[f][1];
    }
    for (int s = 0; s < NSHAPES; s++) {
        PyObject *o = PySequence_Fast_GET_ITEM(sh, s);
        Py_INCREF(o);
        Py_XSETREF(shape_obj[s], o);
        for (int g = 0; g < 8; g++) {
            int k = 0;
            for (int f = 1; f < NFANS; f++)
                if ((fan_shapes[f] >> s & 1) && (fan_gate[f] & (unsigned)g) == fan_gate[f])
                    scan[s][g][k++] = (unsigned char)f;
            scan[s][g][k] = 0;
        }
    }
    Py_DECREF(seq);
    Py_DECREF(sh);
    Py_INCREF(fht);
    Py_XSETREF(fanhit_type, fht);
    if (!PyType_Check(rt)) {
        PyErr_SetString(PyExc_TypeError, "configure: result_type must be a class");
        return NULL;
    }
    static const char *slot_names[4] = {"fans", "total", "flowers", "shape"};
    for (int i = 0; i < 4; i++) {
        PyObject *d = PyDict_GetItemString(((PyTypeObject *)rt)->tp_dict, slot_names[i]);
        if (!d || Py_TYPE(d) != &PyMemberDescr_Type) {
            PyErr_Format(PyExc_TypeError, "configure: result_type has no slot %s", slot_names[i]);
            return NULL;
        }
        Py_INCREF(d);
        Py_XSETREF(result_slot[i], d);
    }
    Py_INCREF(rt);
    Py_XSETREF(result_type, rt);
    Py_INCREF(err);
    Py_XSETREF(input_error, err);
    memcpy(ctx_off, coff, sizeof coff);
    memcpy(meld_off, moff, sizeof moff);
    Py_XINCREF(ctxt);
    Py_XSETREF(ctx_type, (PyTypeObject *)(ctxt && coff[0] >= 0 ? ctxt : NULL));
    if (ctxt && coff[0] < 0) Py_DECREF(ctxt);
    Py_XINCREF(meldt);
    Py_XSETREF(meld_type, (PyTypeObject *)(meldt && moff[0] >= 0 ? meldt : NULL));
    if (meldt && moff[0] < 0) Py_DECREF(meldt);
    configured = 1;
    Py_RETURN_NONE;
}

/* What the module needs before configure(): the knitted patterns, the tile masks and the
 * interned field names.  0, or -1 with an exception set. */
static int fans_init(void) {
    build_knitted();
    build_masks();
#define INTERN(var, text) if (!(var = PyUnicode_InternFromString(text))) return -1
    INTERN(s_concealed_counts, "concealed_counts");
    INTERN(s_win_tile, "win_tile");
    INTERN(s_melds, "melds");
    INTERN(s_self_drawn, "self_drawn");
    INTERN(s_seat_wind, "seat_wind");
    INTERN(s_prevalent_wind, "prevalent_wind");
    INTERN(s_last_tile, "last_tile");
    INTERN(s_kong_replacement, "kong_replacement");
    INTERN(s_robbing_kong, "robbing_kong");
    INTERN(s_last_copy, "last_copy");
    INTERN(s_flowers, "flowers");
    INTERN(s_kind, "kind");
    INTERN(s_base, "base");
#undef INTERN
    PyObject *cn[NCTX] = {s_concealed_counts, s_win_tile, s_melds, s_self_drawn, s_seat_wind,
                          s_prevalent_wind, s_last_tile, s_kong_replacement, s_robbing_kong,
                          s_last_copy, s_flowers};
    memcpy(ctx_name, cn, sizeof cn);
    meld_name[0] = s_kind;
    meld_name[1] = s_base;
    return 0;
}

#ifndef TENPAI_FANS_LIBRARY /* _mcr_rollout.c includes this file for its fan count */
static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "Hand over the fan table (points, shapes, gates, exclusions, classes) and result types."},
    {"evaluate", evaluate, METH_O,
     "The best reading's MCRResult, None for tiles that do not win, NotImplemented when not "
     "covered here."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fans",
                                    "MCR fans in C (see tenpai.rules.mcr.evaluate).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fans(void) {
    if (fans_init() < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "ABI", ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
#endif /* TENPAI_FANS_LIBRARY */
