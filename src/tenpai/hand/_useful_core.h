/*
 * Which draws lower the shanten after each discard, without a draw row per discard.
 *
 * Included after _shanten_core.h by _accel.c (tenpai.hand) and _rollout.c
 * (tenpai.rules.riichi).  A draw row answers "is the hand better with one more j" by combining
 * the four groups' classes through the mp/sh/final tables: two look-ups into tables too large
 * for the first-level cache per kind drawn, 34 per discard.  The rollout policies weigh the
 * effective tiles of every discard tied at the lowest shanten (about six per decision), and
 * those rows were three quarters of a compiled rollout's time.
 *
 * The same answer from the groups' distance vectors.  The standard shanten of a 3k+1-tile hand
 * is min over splits of sum_g d_g(e_g), minus one: a split gives each group g (man, pin, sou,
 * honours) an entry e_g = 2 m_g + p_g -- m_g of the K sets and p_g of the one pair -- and d_g is
 * the distance vector of g's pattern class (tenpai.hand.tables).  One more tile changes one
 * group's vector only, and lowers an entry by at most one, so it lowers the minimum exactly when
 * it lowers the entry of its group on some minimal split.  A discard raises entries of its own
 * group by at most one, so the minimum after it is either the 3k+2 hand's own minimum -- then
 * the minimal splits after it are exactly the hand's minimal splits whose entry in the
 * discarded group it does not raise -- or one more (a complete hand, say), the rarer case,
 * done with min-plus products of the other groups' vectors.  So, per hand: the vectors, the
 * entries each kind's draw lowers (one packed subtraction per kind), the at most 140 splits and
 * the minimal ones; per discard: one class look-up for the group after it, one per kind of that
 * group for the draws, and the kept splits' kinds read per entry of that group.
 *
 * Seven pairs and thirteen orphans (a closed hand of 13 tiles once discarded) keep their exact
 * treatment: a draw lowers the Riichi shanten iff it lowers one of the three forms that reach
 * the minimum (each form moves by at most one per tile), and for those two forms the kinds that
 * lower them follow from the counts.
 *
 * The vectors are the tables' own: a numbered class's vector is that of its man x pin class
 * with an empty pin pattern, a honour class's that of its sou x honours class with an empty sou
 * pattern.  Combining with an empty pattern changes no entry (a fourteen-tile target always
 * leaves room for one more set at a cost of at most three and one more pair at a cost of at
 * most two, so d(m, p) <= d(m - 1, p) + 3 and d(m, p) <= d(m, p - 1) + 2), hence these are
 * exactly the vectors the classes were built from.  tests/hand/test_useful_core.py compares
 * the result with the draw rows and with the pure-Python shanten on random hands.
 */
#ifndef TENPAI_USEFUL_CORE_H
#define TENPAI_USEFUL_CORE_H
#include "_shanten_core.h"

#define UVEC 10 /* entries of a distance vector: 2 * sets + pair, sets 0-4 */
#define UINF 1000

/* Distance vectors per numbered-suit class and per honour class (filled by useful_configure),
 * and the same vectors packed five bits an entry (entry i in bits 5i..5i+3, clamped to 15: no
 * finite distance of a fourteen-tile target exceeds 14, and a sum with a clamped entry still
 * exceeds every minimum) so that which entries one pattern has below another's is one
 * subtraction (see lowered()).  A set of entries is kept in the same layout: bit 5i + 4. */
static int16_t SUIT_VEC[255][UVEC], HONOR_VEC[255][UVEC];
static uint64_t SUIT_PACKED[255], HONOR_PACKED[255];

#define UGUARD 0x0084210842108421ULL /* bit 5i of each entry; shifted by 4: the guard bits */
#define UENTRY(i) (1ULL << (5 * (i) + 4))

static uint64_t pack_vec(const int16_t *v) {
    uint64_t out = 0;
    for (int i = 0; i < UVEC; i++) out |= (uint64_t)(v[i] < 15 ? v[i] : 15) << (5 * i);
    return out;
}

/* Fill the per-class vectors from the combined classes' vectors (``mpv``/``shv``: int16 rows of
 * ten).  Needs the shanten tables configured first.  Returns 0, or -1 with an exception set. */
static int useful_configure(const Py_buffer *mpv, const Py_buffer *shv) {
    const uint8_t *suit = (const uint8_t *)suit_buf.buf;
    const uint8_t *honor = (const uint8_t *)honor_buf.buf;
    const int16_t *mp = (const int16_t *)mp_buf.buf;
    const int16_t *sh = (const int16_t *)sh_buf.buf;
    const int16_t *a = (const int16_t *)mpv->buf, *b = (const int16_t *)shv->buf;
    Py_ssize_t rows_a = mpv->len / (Py_ssize_t)(UVEC * sizeof(int16_t));
    Py_ssize_t rows_b = shv->len / (Py_ssize_t)(UVEC * sizeof(int16_t));
    int empty = suit[0], empty_h = honor[0];
    if (n_pin <= 0 || n_pin > 255 || n_honor <= 0 || n_honor > 255 || empty >= n_pin ||
        empty_h >= n_honor || mp_buf.len < (Py_ssize_t)(n_pin * n_pin * sizeof(int16_t)) ||
        sh_buf.len < (Py_ssize_t)(n_pin * n_honor * sizeof(int16_t))) {
        PyErr_SetString(PyExc_ValueError, "useful_configure: unexpected table sizes");
        return -1;
    }
    for (Py_ssize_t c = 0; c < n_pin; c++) {
        int row = mp[c * n_pin + empty];
        if (row < 0 || row >= rows_a) {
            PyErr_SetString(PyExc_ValueError, "useful_configure: a class outside mp_vectors");
            return -1;
        }
        for (int i = 0; i < UVEC; i++) SUIT_VEC[c][i] = a[(Py_ssize_t)row * UVEC + i];
        SUIT_PACKED[c] = pack_vec(SUIT_VEC[c]);
    }
    for (Py_ssize_t z = 0; z < n_honor; z++) {
        int row = sh[(Py_ssize_t)empty * n_honor + z];
        if (row < 0 || row >= rows_b) {
            PyErr_SetString(PyExc_ValueError, "useful_configure: a class outside sh_vectors");
            return -1;
        }
        for (int i = 0; i < UVEC; i++) HONOR_VEC[z][i] = b[(Py_ssize_t)row * UVEC + i];
        HONOR_PACKED[z] = pack_vec(HONOR_VEC[z]);
    }
    return 0;
}

static inline const int16_t *class_vec(int g, int cls) {
    return g < 3 ? SUIT_VEC[cls] : HONOR_VEC[cls];
}

static inline uint64_t class_packed(int g, int cls) {
    return g < 3 ? SUIT_PACKED[cls] : HONOR_PACKED[cls];
}

/* The entries (as bits 5i + 4) where the packed ``more`` is below the packed ``base``: each
 * field of (more | guard) - base keeps its guard bit exactly when more >= base there, and
 * never borrows from the next field (16 + more - base >= 1). */
static inline uint64_t lowered(uint64_t more, uint64_t base) {
    uint64_t guard = UGUARD << 4;
    return ~((more | guard) - base) & guard;
}

/* out = a (min, +) b, every entry (the constant bounds let the compiler unroll it). */
static inline void min_plus(const int *a, const int *b, int *out) {
    for (int m = 0; m <= 4; m++) {
        int even = UINF, odd = UINF;
        for (int m1 = 0; m1 <= m; m1++) {
            int e = a[2 * m1] + b[2 * (m - m1)];
            int o1 = a[2 * m1] + b[2 * (m - m1) + 1], o2 = a[2 * m1 + 1] + b[2 * (m - m1)];
            if (e < even) even = e;
            if (o1 < odd) odd = o1;
            if (o2 < odd) odd = o2;
        }
        out[2 * m] = even;
        out[2 * m + 1] = odd;
    }
}

/* What the discards of one 3k+2-tile hand share, filled as they are asked for: a discard
 * changes its own group only, so everything about the three other groups -- their vectors,
 * their kinds' lowered bits, their min-plus products and, per target, the kinds of theirs on a
 * minimal split -- is the same for every discard of that group. */
/* What one group's pattern alone decides -- for each kind of the group, the entries one more
 * copy lowers, and per entry the kinds lowering it -- kept under the group's key, so a caller
 * asking about hands that share groups computes them once: the rollouts keep one per seat,
 * and a seat's turn (one draw, one discard) changes at most two of its four groups. */
typedef struct {
    long tag[4];             /* 1 + the key of the pattern group g's rows are for (0: none) */
    uint64_t low[34];        /* entries one more of the kind lowers (0: four held) */
    int bad[4];              /* group g has a drawable kind with no class (FALLBACK) */
    unsigned by_ready[4];    /* bit b: by_entry[g][b] filled */
    unsigned long long by_entry[4][UVEC]; /* kinds of group g whose low has entry b */
    int half_tag[2];         /* 1 + the two classes half[h] is the min-plus product of (0: none) */
    int half[2][UVEC];       /* man x pin, sou x honours: a turn usually leaves one half alone */
} UsefulDraws;

typedef struct {
    int cls[4];              /* the four groups' classes */
    int sets;                /* sets the hand needs (K) */
    int vec[4][UVEC];
    UsefulDraws *dr;         /* the groups' draws: the caller's (kept across hands) or own */
    UsefulDraws own;
    unsigned ready;          /* bit 4 + g: rest[g] and the pairs */
    int pair[4][4][UVEC];    /* pair[a][b]: product of the two groups other than a and b */
    int rest[4][UVEC];       /* rest[g]: product of the three groups other than g */
    unsigned use_ready[4];   /* bit t: use[g][t] filled */
    unsigned long long use[4][UVEC]; /* use[g][t]: kinds outside g lowering a minimal split of
                                      * the other three groups for target entry t */
    uint64_t pvec[4];        /* the groups' packed vectors */
    int best;                /* the hand's minimal total over splits */
    int n_min;               /* its minimal splits: each group's entry, and the kinds lowering */
    unsigned char split[140][4]; /* that entry in their group */
    uint64_t min_entries[4]; /* bit 5i + 4 of group g: some minimal split gives g entry i */
    int kinds_ready;         /* split_kinds and entry_kinds are filled */
    unsigned long long split_kinds[140];
    unsigned long long entry_kinds[4][UVEC]; /* entry_kinds[g][e]: the union of split_kinds
                                              * over the minimal splits giving g entry e */
    unsigned long long after_known; /* bit k: after_cls[k] holds the class of k's group after
                                     * discarding k (useful_discard_shanten looked it up) */
    uint8_t after_cls[34];
    int special_floor;       /* useful_special_floor of the hand */
    unsigned bad_groups;     /* bit g: dr->bad[g] (set by useful_kinds) */
} UsefulBase;

static const unsigned long long GROUP_MASK[4] = {0x1FFULL, 0x1FFULL << 9, 0x1FFULL << 18,
                                                  0x7FULL << 27};

static const unsigned long long ALL_KINDS = (1ULL << 34) - 1;

static const unsigned long long TERMINAL_MASK =
    (1ULL << 0) | (1ULL << 8) | (1ULL << 9) | (1ULL << 17) | (1ULL << 18) | (1ULL << 26) |
    (0x7FULL << 27);

/* The lowest kind in a non-empty mask. */
static inline int lowest_kind(unsigned long long c) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(c);
#else
    int j = 0;
    while (!(c >> j & 1)) j++;
    return j;
#endif
}

/* The union of split_kinds over the minimal splits whose entry in group g is in ``entries``
 * (bits 5e + 4): a discard of g keeps exactly the minimal splits whose g entry it keeps, so
 * this is their kinds without a pass over the splits. */
static inline unsigned long long kept_kinds(const UsefulBase *u, int g, uint64_t entries) {
    unsigned long long m = 0;
    for (; entries; entries &= entries - 1) m |= u->entry_kinds[g][(lowest_kind(entries) - 4) / 5];
    return m;
}

/* The class of group g's pattern with key ``key`` (255: none). */
static inline int group_class(int g, long key) {
    return g < 3 ? ((const uint8_t *)suit_buf.buf)[key] : ((const uint8_t *)honor_buf.buf)[key];
}

/* The lowest shanten seven pairs or thirteen orphans can give the hand ``h`` minus one tile:
 * no discard lowers either form's count (a pair or a kind lost, never one gained), so the
 * 3k+2-tile hand's own figures bound every discard's from below.  99 when neither form can
 * apply (fewer than 13 tiles left). */
static inline int useful_special_floor(const Hand *h) {
    if (h->tiles - 1 < 13) return 99;
    int chi = 6 - h->pairs + (h->kinds < 7 ? 7 - h->kinds : 0);
    int kok = 13 - h->term_kinds - (h->term_pairs > 0);
    return chi < kok ? chi : kok;
}

/* Start ``u`` for the hand ``h`` (3k+2 tiles): the groups' classes and vectors, and the hand's
 * minimal splits -- all the shanten after each discard needs (useful_discard_shanten); what
 * only the effective tiles need (the draw classes, the kinds lowering each split) waits until a
 * discard's effective tiles are asked for (useful_after).  ``draws`` (or NULL) keeps the
 * groups' draws from earlier hands (zero it before its first use).  Returns 0, or FALLBACK (a
 * pattern the tables do not hold). */
static inline void useful_min_splits(UsefulBase *u);
static inline int useful_begin(const Hand *h, UsefulBase *u, UsefulDraws *draws) {
    if (draws == NULL) {
        draws = &u->own;
        for (int g = 0; g < 4; g++) draws->tag[g] = 0;
        draws->half_tag[0] = draws->half_tag[1] = 0;
    }
    u->dr = draws;
    for (int g = 0; g < 4; g++) {
        int c = group_class(g, h->key[g]);
        if (c == 255) return FALLBACK;
        u->cls[g] = c;
        const int16_t *v = class_vec(g, c);
        for (int i = 0; i < UVEC; i++) u->vec[g][i] = v[i];
        u->pvec[g] = class_packed(g, c);
        u->use_ready[g] = 0;
    }
    u->ready = 0;
    u->kinds_ready = 0;
    u->after_known = 0;
    u->special_floor = useful_special_floor(h);
    u->sets = (h->tiles - 1) / 3 < 4 ? (h->tiles - 1) / 3 : 4;
    useful_min_splits(u);
    return 0;
}

/* low[] and bad[] of group g: one class look-up per kind of the group with one more copy,
 * unless u->dr holds them for this pattern already. */
static inline void useful_group(const Hand *h, UsefulBase *u, int g) {
    UsefulDraws *dr = u->dr;
    long key = h->key[g];
    if (dr->tag[g] == key + 1) return;
    int lo = g < 3 ? 9 * g : 27, hi = g < 3 ? lo + 9 : 34;
    uint64_t base = u->pvec[g];
    dr->bad[g] = 0;
    for (int j = lo; j < hi; j++) {
        dr->low[j] = 0;
        if (h->c[j] >= 4) continue;
        int d = group_class(g, key + KIND_PLACE[j]);
        /* no such pattern (a suit of 15 tiles): only a discard from this group can follow,
         * and useful_after() looks that group up itself */
        if (d == 255)
            dr->bad[g] = 1;
        else
            dr->low[j] = lowered(class_packed(g, d), base);
    }
    dr->by_ready[g] = 0;
    dr->tag[g] = key + 1;
}

/* rest[gk], and pair[g][gk] for the three other groups g. */
static void useful_rest(UsefulBase *u, int gk) {
    int o[3], n = 0;
    for (int g = 0; g < 4; g++)
        if (g != gk) o[n++] = g;
    /* pair[o0][gk] = o1 x o2, pair[o1][gk] = o0 x o2, pair[o2][gk] = o0 x o1 */
    min_plus(u->vec[o[1]], u->vec[o[2]], u->pair[o[0]][gk]);
    min_plus(u->vec[o[0]], u->vec[o[2]], u->pair[o[1]][gk]);
    min_plus(u->vec[o[0]], u->vec[o[1]], u->pair[o[2]][gk]);
    min_plus(u->vec[o[0]], u->pair[o[0]][gk], u->rest[gk]);
    u->ready |= 1u << (4 + gk);
}

/* use[gk][t] (see UsefulBase); needs useful_rest(u, gk) and useful_group() of the others. */

static unsigned long long useful_use(UsefulBase *u, int gk, int t) {
    if (u->use_ready[gk] >> t & 1) return u->use[gk][t];
    int best = u->rest[gk][t], pt = t & 1;
    unsigned long long mask = 0;
    for (int g = 0; g < 4; g++) {
        if (g == gk) continue;
        const int *v = u->vec[g], *pr = u->pair[g][gk];
        uint64_t bits = 0;
        for (int b = 0; b <= t; b += 2) bits |= (uint64_t)(v[b] + pr[t - b] == best) << (5 * b + 4);
        if (pt)
            for (int b = 1; b <= t; b += 2)
                bits |= (uint64_t)(v[b] + pr[t - b] == best) << (5 * b + 4);
        int lo = g < 3 ? 9 * g : 27, hi = g < 3 ? lo + 9 : 34;
        for (int j = lo; j < hi; j++)
            mask |= (unsigned long long)((u->dr->low[j] & bits) != 0) << j;
    }
    u->use[gk][t] = mask;
    u->use_ready[gk] |= 1u << t;
    return mask;
}

/* The kinds of group g whose one more copy lowers entry b of g's vector. */
static inline unsigned long long by_entry(UsefulDraws *dr, int g, int b) {
    if (!(dr->by_ready[g] >> b & 1)) {
        int lo = g < 3 ? 9 * g : 27, hi = g < 3 ? lo + 9 : 34;
        unsigned long long m = 0;
        for (int j = lo; j < hi; j++) m |= (unsigned long long)((dr->low[j] & UENTRY(b)) != 0) << j;
        dr->by_entry[g][b] = m;
        dr->by_ready[g] |= 1u << b;
    }
    return dr->by_entry[g][b];
}

/* Every split of the hand's K sets and one pair over the four groups (at most 4 x 35), keeping
 * the minimal ones: a discard that leaves the total minimal keeps exactly those of them whose
 * entry in its group it does not raise, so the shanten after it (useful_discard_shanten) and
 * its effective tiles (useful_after) are read off this list. */
static inline void useful_min_splits(UsefulBase *u) {
    /* the minimum through the two halves' min-plus products (man x pin, sou x honours), then
     * only the minimal splits are spelled out */
    int k = u->sets, top = 2 * k + 1, best = UINF, n = 0;
    const int *v0 = u->vec[0], *v1 = u->vec[1], *v2 = u->vec[2], *v3 = u->vec[3];
    uint64_t m0 = 0, m1 = 0, m2 = 0, m3 = 0;
    /* each half's product kept under its two classes in the caller's draws */
    UsefulDraws *dr = u->dr;
    int ta = 1 + (u->cls[0] << 8 | u->cls[1]), tb = 1 + (u->cls[2] << 8 | u->cls[3]);
    if (dr->half_tag[0] != ta) {
        min_plus(v0, v1, dr->half[0]);
        dr->half_tag[0] = ta;
    }
    if (dr->half_tag[1] != tb) {
        min_plus(v2, v3, dr->half[1]);
        dr->half_tag[1] = tb;
    }
    const int *a = dr->half[0], *b = dr->half[1];
    for (int e = 0; e <= top; e++)
        if (a[e] + b[top - e] < best) best = a[e] + b[top - e];
    for (int e = 0; e <= top; e++) {
        int f = top - e;
        if (a[e] + b[f] != best) continue;
        for (int e0 = 0; e0 <= e; e0 += 1 + !(e & 1)) {
            int e1 = e - e0;
            if (v0[e0] + v1[e1] != a[e]) continue;
            for (int e2 = 0; e2 <= f; e2 += 1 + !(f & 1)) {
                int e3 = f - e2;
                if (v2[e2] + v3[e3] != b[f]) continue;
                u->split[n][0] = (unsigned char)e0;
                u->split[n][1] = (unsigned char)e1;
                u->split[n][2] = (unsigned char)e2;
                u->split[n][3] = (unsigned char)e3;
                m0 |= UENTRY(e0);
                m1 |= UENTRY(e1);
                m2 |= UENTRY(e2);
                m3 |= UENTRY(e3);
                n++;
            }
        }
    }
    u->min_entries[0] = m0;
    u->min_entries[1] = m1;
    u->min_entries[2] = m2;
    u->min_entries[3] = m3;
    u->best = best;
    u->n_min = n;
}

/* The Riichi shanten of the hand ``h`` of useful_begin(h, u) minus one ``k`` (as hand_riichi
 * gives it), or FALLBACK: the discard raises each entry of its group's vector by zero or one,
 * so the standard form's minimum stays the hand's when some minimal split keeps its entry in
 * that group and is one more otherwise -- one class look-up instead of a whole hand's.  Seven
 * pairs and thirteen orphans come from the counts, as in hand_riichi. */
static inline int useful_discard_shanten(const Hand *h, UsefulBase *u, int k) {
    int gk = KIND_GROUP[k];
    int ck = group_class(gk, h->key[gk] - KIND_PLACE[k]);
    if (ck == 255) return FALLBACK;
    u->after_cls[k] = (uint8_t)ck; /* kept for the counts: the look-up is a cache miss */
    u->after_known |= 1ULL << k;
    uint64_t kept = ~lowered(u->pvec[gk], class_packed(gk, ck)) & (UGUARD << 4);
    int best = (kept & u->min_entries[gk]) ? u->best - 1 : u->best;
    if (u->special_floor <= u->best) { /* else neither form can reach the minimum */
        int held = h->c[k];
        int kinds = h->kinds - (held == 1), pairs = h->pairs - (held == 2);
        int t = 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
        if (t < best) best = t;
        int term = KIND_TERMINAL[k];
        int tk = h->term_kinds - (term && held == 1), tp = h->term_pairs - (term && held == 2);
        t = 13 - tk - (tp > 0);
        if (t < best) best = t;
    }
    return best;
}

/* What only the effective tiles need: every group's low[] and, per minimal split, the kinds
 * whose draw lowers it. */
static void useful_kinds(const Hand *h, UsefulBase *u) {
    for (int g = 0; g < 4; g++) useful_group(h, u, g);
    UsefulDraws *dr = u->dr;
    u->bad_groups = (unsigned)dr->bad[0] | (unsigned)dr->bad[1] << 1 | (unsigned)dr->bad[2] << 2 |
                    (unsigned)dr->bad[3] << 3;
    memset(u->entry_kinds, 0, sizeof u->entry_kinds);
    for (int i = 0; i < u->n_min; i++) {
        const unsigned char *sp = u->split[i];
        unsigned long long m = by_entry(dr, 0, sp[0]) | by_entry(dr, 1, sp[1]) |
                               by_entry(dr, 2, sp[2]) | by_entry(dr, 3, sp[3]);
        u->split_kinds[i] = m;
        for (int g = 0; g < 4; g++) u->entry_kinds[g][u->split[i][g]] |= m;
    }
    u->kinds_ready = 1;
}

/* The class of k's group after discarding k: the one useful_discard_shanten looked up, else
 * looked up now (255: none). */
static inline int after_class(const Hand *h, const UsefulBase *u, int k) {
    if (u->after_known >> k & 1) return u->after_cls[k];
    int gk = KIND_GROUP[k];
    return group_class(gk, h->key[gk] - KIND_PLACE[k]);
}

/* Seven pairs and thirteen orphans after discarding k from a hand of 14 or more tiles (13 or
 * more left, closed): the lower of the two forms' shanten, and in *mask the kinds whose draw
 * lowers a form reaching it -- from the counts. */
static inline int useful_special(const Hand *h, int k, unsigned long long *mask) {
    int held = h->c[k]; /* before the discard */
    unsigned long long bit = 1ULL << k, ones = h->held & ~h->paired,
                       zeros = ~h->held & ALL_KINDS, out = 0;
    if (held == 1) {
        ones &= ~bit;
        zeros |= bit;
    } else if (held == 2)
        ones |= bit;
    int kinds = h->kinds - (held == 1), pairs = h->pairs - (held == 2);
    int chi = 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
    int term = (int)(TERMINAL_MASK >> k & 1);
    int tk = h->term_kinds - (term && held == 1), tp = h->term_pairs - (term && held == 2);
    int kok = 13 - tk - (tp > 0);
    int best = chi < kok ? chi : kok;
    if (chi == best) out |= ones | (kinds < 7 ? zeros : 0);
    if (kok == best) out |= TERMINAL_MASK & (zeros | (tp == 0 ? ones : 0));
    *mask = out;
    return best;
}

/* What the effective tiles of one discard k need before the look-ups of k's own group: the
 * seven-pairs and orphans part, the standard form's shanten, its kinds outside k's group, and
 * the kinds of k's group that may count (see useful_part). */
typedef struct {
    int k, best, std;         /* the shanten after the discard, and the standard form's */
    int ck;                   /* the class of k's group after the discard */
    unsigned long long out;   /* seven pairs' and orphans' kinds, where they reach ``best`` */
    unsigned long long std_mask; /* the standard form's kinds outside k's group */
    unsigned long long cand;  /* the kinds of k's group whose draw may lower it */
    uint64_t opt;             /* the entries of k's group on the minimal splits after it */
} UsefulPart;

/* The first half of useful_after (see there).  Returns 0, or FALLBACK. */
static int useful_part(const Hand *h, UsefulBase *u, int k, UsefulPart *p) {
    int gk = KIND_GROUP[k];
    if (!u->kinds_ready) useful_kinds(h, u);
    if (u->bad_groups & ~(1u << gk)) return FALLBACK;
    int ck = after_class(h, u, k);
    if (ck == 255) return FALLBACK;
    uint64_t pk = class_packed(gk, ck);
    int best = 99;
    unsigned long long out = 0;
    /* seven pairs and thirteen orphans, from the counts, when they can reach the standard
     * form's minimum (which is at most the hand's own plus one) */
    if (u->special_floor <= u->best)
        best = useful_special(h, k, &out);
    /* The standard form.  The discard raises each entry of its group's vector by zero or one,
     * so the new minimum is the hand's (the minimal splits whose entry in this group it keeps)
     * or one more (none kept; min_plus does that rarer case below). */
    uint64_t kept = ~lowered(u->pvec[gk], pk) & (UGUARD << 4);
    uint64_t opt = kept & u->min_entries[gk];
    unsigned long long std_mask = kept_kinds(u, gk, opt);
    int std;
    unsigned long long cand = GROUP_MASK[gk]; /* the kinds of gk whose draw may lower it */
    if (opt) {
        std = u->best - 1;
        /* A draw j of gk lowering a kept entry e after the discard lowers e of the hand before
         * it too (that hand holds the one after, and one more tile never raises an entry), and
         * j = k gives that hand back, whose kept entries are what they were: so only the kinds
         * of gk whose one more copy lowers a kept entry of the hand before can -- what the
         * kept splits' kinds hold in gk.  (Unless the hand before is a pattern with no room
         * for one more in gk -- fifteen tiles of a suit, bad[gk] -- whose draws have no row.) */
        if (!u->dr->bad[gk]) cand = std_mask & GROUP_MASK[gk] & ~(1ULL << k);
        std_mask &= ~GROUP_MASK[gk];
    } else {
        std = u->best;
        std_mask = 0;
        if (std <= best) {
            if (!(u->ready >> (4 + gk) & 1)) useful_rest(u, gk);
            const int16_t *vk = class_vec(gk, ck);
            const int *rest = u->rest[gk];
            int sets = u->sets, total = UINF;
            for (int c = 0; c <= 2 * sets + 1; c++) {
                int x = vk[c] + rest[2 * sets + 1 - c];
                if (x < total) total = x;
            }
            if (total != u->best + 1) return FALLBACK; /* cannot happen (see above) */
            for (int c = 0; c <= 2 * sets + 1; c++)
                if (vk[c] + rest[2 * sets + 1 - c] == total) {
                    opt |= UENTRY(c);
                    std_mask |= useful_use(u, gk, 2 * sets + 1 - c);
                }
        }
    }
    if (std < best) {
        best = std;
        out = 0;
    }
    if (std > best) cand = 0, std_mask = 0; /* the standard form does not reach the minimum */
    p->k = k;
    p->best = best;
    p->std = std;
    p->ck = ck;
    p->out = out;
    p->std_mask = std_mask;
    p->cand = cand;
    p->opt = opt;
    return 0;
}

/* A superset of the kinds useful_finish gives for the part ``p``: all of k's group's
 * candidates taken as counting. */
static inline unsigned long long useful_part_bound(const UsefulPart *p) {
    return p->out | p->std_mask | p->cand;
}

/* The second half of useful_after: the look-ups of k's own group's candidate draws (one more
 * of each after the discard).  Returns 0, or FALLBACK. */
static int useful_finish(const Hand *h, const UsefulPart *p, unsigned long long *mask) {
    int k = p->k, gk = KIND_GROUP[k];
    unsigned long long out = p->out | p->std_mask;
    const uint8_t *table = gk < 3 ? (const uint8_t *)suit_buf.buf : (const uint8_t *)honor_buf.buf;
    long key = h->key[gk] - KIND_PLACE[k];
    uint64_t pk = class_packed(gk, p->ck);
    for (unsigned long long c = p->cand; c; c &= c - 1) {
        int j = lowest_kind(c);
        if (h->c[j] - (j == k) >= 4) continue;
        int d = table[key + KIND_PLACE[j]];
        if (d == 255) return FALLBACK;
        out |= (unsigned long long)((lowered(class_packed(gk, d), pk) & p->opt) != 0) << j;
    }
    *mask = out;
    return 0;
}

/* For the hand ``h`` of useful_begin(h, u) minus one ``k``: the kinds whose draw lowers its
 * Riichi shanten (a kind held four times is never one) in *mask, the shanten in *shanten
 * (standard, seven pairs and thirteen orphans once it is a closed 13-tile hand, as
 * hand_riichi).  Returns 0, or FALLBACK (a pattern the tables do not hold: never for a hand
 * of at most 14 tiles).  In two halves (useful_part, useful_finish) so that a caller that
 * only needs to know whether a discard can beat another can stop after the first. */
static inline int useful_after(const Hand *h, UsefulBase *u, int k, unsigned long long *mask,
                               int *shanten) {
    UsefulPart p;
    if (useful_part(h, u, k, &p) == FALLBACK || useful_finish(h, &p, mask) == FALLBACK)
        return FALLBACK;
    *shanten = p.best;
    return 0;
}

#endif /* TENPAI_USEFUL_CORE_H */
