/*
 * The compiled Riichi scorer's pure-C core, shared by _score.c (scoring a WinContext) and
 * _rollout.c (scoring the wins of hands played inside C): the yaku table, the facts of a win,
 * its readings, fu, limits, yaku masks and payments.  One transcription of the Python yaku
 * classes (checked against them by setup() and the tests); nothing here touches Python objects
 * except the Rules.obj cache key.
 */
#ifndef TENPAI_SCORE_CORE_H
#define TENPAI_SCORE_CORE_H
#include <Python.h>
#include <string.h>

/* ------------------------------------------------------------------------- yaku table */

enum {
    Y_MENZEN_TSUMO, Y_RIICHI, Y_IPPATSU, Y_CHANKAN, Y_RINSHAN, Y_HAITEI, Y_HOUTEI, Y_PINFU,
    Y_TANYAO, Y_IIPEIKOU, Y_SEAT_WIND, Y_ROUND_WIND, Y_HAKU, Y_HATSU, Y_CHUN, Y_DOUBLE_RIICHI,
    Y_CHIITOITSU, Y_CHANTA, Y_ITTSU, Y_SANSHOKU, Y_SANSHOKU_DOUKOU, Y_SANKANTSU, Y_TOITOI,
    Y_SANANKOU, Y_SHOUSANGEN, Y_HONROUTOU, Y_RYANPEIKOU, Y_JUNCHAN, Y_HONITSU, Y_CHINITSU,
    Y_RENHOU,
    N_REGULAR,
    Y_TENHOU = N_REGULAR, Y_CHIIHOU, Y_RENHOU_YAKUMAN, Y_DAISANGEN, Y_SUUANKOU,
    Y_SUUANKOU_TANKI, Y_TSUUIISOU, Y_RYUUIISOU, Y_CHINROUTOU, Y_CHUUREN, Y_JUNSEI_CHUUREN,
    Y_KOKUSHI, Y_KOKUSHI_13, Y_DAISUUSHII, Y_SHOUSUUSHII, Y_SUUKANTSU,
    N_YAKU
};

typedef struct {
    const char *id;
    int han_closed, han_open, yakuman, dbl;
} YakuDef;

static const YakuDef YAKU[N_YAKU] = {
    {"menzen_tsumo", 1, 0, 0, 0}, {"riichi", 1, 0, 0, 0}, {"ippatsu", 1, 0, 0, 0},
    {"chankan", 1, 1, 0, 0}, {"rinshan", 1, 1, 0, 0}, {"haitei", 1, 1, 0, 0},
    {"houtei", 1, 1, 0, 0}, {"pinfu", 1, 0, 0, 0}, {"tanyao", 1, 1, 0, 0},
    {"iipeikou", 1, 0, 0, 0}, {"yakuhai_seat_wind", 1, 1, 0, 0},
    {"yakuhai_round_wind", 1, 1, 0, 0}, {"yakuhai_haku", 1, 1, 0, 0},
    {"yakuhai_hatsu", 1, 1, 0, 0}, {"yakuhai_chun", 1, 1, 0, 0},
    {"double_riichi", 2, 0, 0, 0}, {"chiitoitsu", 2, 0, 0, 0}, {"chanta", 2, 1, 0, 0},
    {"ittsu", 2, 1, 0, 0}, {"sanshoku", 2, 1, 0, 0}, {"sanshoku_doukou", 2, 2, 0, 0},
    {"sankantsu", 2, 2, 0, 0}, {"toitoi", 2, 2, 0, 0}, {"sanankou", 2, 2, 0, 0},
    {"shousangen", 2, 2, 0, 0}, {"honroutou", 2, 2, 0, 0}, {"ryanpeikou", 3, 0, 0, 0},
    {"junchan", 3, 2, 0, 0}, {"honitsu", 3, 2, 0, 0}, {"chinitsu", 6, 5, 0, 0},
    {"renhou", 5, 0, 0, 0},
    {"tenhou", 13, 0, 1, 0}, {"chiihou", 13, 0, 1, 0}, {"renhou_yakuman", 13, 0, 1, 0},
    {"daisangen", 13, 13, 1, 0}, {"suuankou", 13, 0, 1, 0}, {"suuankou_tanki", 13, 0, 1, 1},
    {"tsuuiisou", 13, 13, 1, 0}, {"ryuuiisou", 13, 13, 1, 0}, {"chinroutou", 13, 13, 1, 0},
    {"chuuren", 13, 0, 1, 0}, {"junsei_chuuren", 13, 0, 1, 1}, {"kokushi", 13, 0, 1, 0},
    {"kokushi_13", 13, 0, 1, 1}, {"daisuushii", 13, 13, 1, 1}, {"shousuushii", 13, 13, 1, 0},
    {"suukantsu", 13, 13, 1, 0},
};


typedef struct {
    PyObject *obj; /* strong reference: the address cannot be reused while cached */
    int players, red_fives, open_tanyao, kazoe, kiriage, dbl_variants, stacking, dwpf, renhou;
    int pao_whole, honba_points, riichi_deposit;
    unsigned long long pao_mask;
} Rules;

/* ------------------------------------------------------------------------- tiles */

static const int TERM_HONOR[34] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1,
                                   1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
static const int GREEN_KIND[34] = {[19] = 1, [20] = 1, [21] = 1, [23] = 1, [25] = 1, [32] = 1};
static const int NINE_GATES[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};

static inline int kind_of(int t) { return t < 34 ? t : (t == 34 ? 4 : t == 35 ? 13 : 22); }

static int dora_of(int k, int players) {
    if (players == 3) {
        if (k == 0) return 8;
        if (k == 8) return 0;
    }
    if (k < 27) return k - k % 9 + (k % 9 + 1) % 9;
    if (k < 31) return 27 + (k - 27 + 1) % 4;
    return 31 + (k - 31 + 1) % 3;
}

/* ------------------------------------------------------------------------- the hand */

enum { STANDARD, CHIITOITSU, KOKUSHI };
enum { RYANMEN, KANCHAN, PENCHAN, TANKI, SHANPON };

typedef struct {
    unsigned char seq, tile, open, kan, concealed;
} Set;

typedef struct {
    int closed_counts[34], counts[34];
    int reds, win_kind, closed, tsumo, dealer, seat_wind, round_wind;
    int suits, has_honor, all_simple, all_terminal_honor, all_green;
    int n_melds;
    Set meld_sets[4];
    int has_melds;
    /* situation */
    int riichi, double_riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou,
        renhou_flag, nukidora;
    int dora[3];
    Rules *rules; /* points at rules_v: a copy, since a flag's __bool__ could run Python
                   * code that evicts the cache entry */
    Rules rules_v;
} Facts;

/* Decompositions of the closed part: the pair and the groups (sequences first, each kind in
 * ascending order), in the order tenpai.hand.decompose lists them. */
#define MAX_DEC 64
typedef struct {
    int pair, n;
    Set g[4];
} Dec;

typedef struct {
    int work[34];
    int pair;
    int n_seq, n_trip;
    unsigned char seqs[4], trips[4];
    Dec out[MAX_DEC];
    int n_out;
    int overflow;
} DecState;

static void dec_rec(DecState *s, int i) {
    while (i < 34 && s->work[i] == 0) i++;
    if (i == 34) {
        if (s->pair < 0) return;
        if (s->n_out >= MAX_DEC) {
            s->overflow = 1;
            return;
        }
        Dec *d = &s->out[s->n_out++];
        d->pair = s->pair;
        d->n = 0;
        for (int k = 0; k < s->n_seq; k++) d->g[d->n++] = (Set){1, s->seqs[k], 0, 0, 1};
        for (int k = 0; k < s->n_trip; k++) d->g[d->n++] = (Set){0, s->trips[k], 0, 0, 1};
        return;
    }
    int *w = s->work;
    if (w[i] >= 3 && s->n_seq + s->n_trip < 4) {
        w[i] -= 3;
        s->trips[s->n_trip++] = (unsigned char)i;
        dec_rec(s, i);
        s->n_trip--;
        w[i] += 3;
    }
    if (s->pair < 0 && w[i] >= 2) {
        w[i] -= 2;
        s->pair = i;
        dec_rec(s, i);
        s->pair = -1;
        w[i] += 2;
    }
    if (i < 27 && i % 9 <= 6 && w[i + 1] && w[i + 2] && s->n_seq + s->n_trip < 4) {
        w[i]--;
        w[i + 1]--;
        w[i + 2]--;
        s->seqs[s->n_seq++] = (unsigned char)i;
        dec_rec(s, i);
        s->n_seq--;
        w[i]++;
        w[i + 1]++;
        w[i + 2]++;
    }
}

/* One reading's shape facts. */
typedef struct {
    int form, pair, wait;
    int n_sets;
    Set sets[4];
} Reading;

static int is_yakuhai(const Facts *f, int k) {
    return k == 31 || k == 32 || k == 33 || k == f->seat_wind || k == f->round_wind;
}

static int reading_fu(const Facts *f, const Reading *r) {
    if (r->form == CHIITOITSU) return 25;
    if (r->form == KOKUSHI) return 0;
    int extra = 0;
    for (int i = 0; i < r->n_sets; i++) {
        const Set *s = &r->sets[i];
        if (s->seq) continue;
        int v = TERM_HONOR[s->tile] ? 4 : 2;
        if (s->concealed) v *= 2;
        if (s->kan) v *= 4;
        extra += v;
    }
    int p = r->pair;
    if (p >= 31)
        extra += 2;
    else if (p >= 27) {
        if (p == f->seat_wind && p == f->round_wind)
            extra += f->rules->dwpf;
        else if (p == f->seat_wind || p == f->round_wind)
            extra += 2;
    }
    if (r->wait != RYANMEN && r->wait != SHANPON) extra += 2;
    int total;
    if (f->closed) {
        if (f->tsumo)
            total = 20 + extra + (extra ? 2 : 0);
        else
            total = 30 + extra;
    } else {
        total = 20 + extra + (f->tsumo ? 2 : 0);
        if (total == 20) total = 30;
    }
    /* Python's floor division: correct for negative totals too (a custom negative fu rule) */
    int q = total + 9;
    int fl = q >= 0 ? q / 10 : -((-q + 9) / 10);
    return fl * 10;
}

static inline int ceil100(long long x) {
    long long q = x >= 0 ? (x + 99) / 100 : -((-x) / 100);
    return (int)(q * 100);
}

static const char *LIMIT_STR[] = {"", "mangan", "haneman", "baiman", "sanbaiman",
                                  "kazoe_yakuman"};

/* Base points; *limit gets an index into limit_names (0-5 regular, 6+ yakuman count - 1). */
static long long base_points(int han, int fu, int ym, const Rules *r, int *limit) {
    if (ym) {
        *limit = 5 + ym;
        return 8000LL * ym;
    }
    if (han >= 13) {
        if (!r->kazoe) {
            *limit = 4;
            return 6000;
        }
        *limit = 5;
        return 8000;
    }
    if (han >= 11) { *limit = 4; return 6000; }
    if (han >= 8) { *limit = 3; return 4000; }
    if (han >= 6) { *limit = 2; return 3000; }
    if (han >= 5) { *limit = 1; return 2000; }
    long long base;
    if (han + 2 < 0)
        base = 0; /* unreachable for real yaku; keeps the shift defined */
    else
        base = (long long)fu << (han + 2);
    if (base > 2000) { *limit = 1; return 2000; }
    if (r->kiriage && ((han == 4 && fu == 30) || (han == 3 && fu == 60))) {
        *limit = 1;
        return 2000;
    }
    *limit = 0;
    return base;
}

static void payment_split(long long base, int dealer, int tsumo, int *ron, int *from_dealer,
                          int *from_other) {
    if (!tsumo) {
        *ron = ceil100(base * (dealer ? 6 : 4));
        *from_dealer = *from_other = 0;
    } else if (dealer) {
        *ron = 0;
        *from_dealer = 0;
        *from_other = ceil100(base * 2);
    } else {
        *ron = 0;
        *from_dealer = ceil100(base * 2);
        *from_other = ceil100(base);
    }
}

/* Per-reading shape summary. */
typedef struct {
    int seqs[4], n_seq;
    int trips[4], n_trip;
    int ankou, kans;
} Shape;

static void shape_of(const Reading *r, Shape *s) {
    s->n_seq = s->n_trip = s->ankou = s->kans = 0;
    for (int i = 0; i < r->n_sets; i++) {
        const Set *x = &r->sets[i];
        if (x->seq)
            s->seqs[s->n_seq++] = x->tile;
        else {
            s->trips[s->n_trip++] = x->tile;
            if (x->concealed) s->ankou++;
            if (x->kan) s->kans++;
        }
    }
    /* sort seqs (at most 4) */
    for (int i = 1; i < s->n_seq; i++) {
        int v = s->seqs[i], j = i - 1;
        while (j >= 0 && s->seqs[j] > v) {
            s->seqs[j + 1] = s->seqs[j];
            j--;
        }
        s->seqs[j + 1] = v;
    }
}

static int has_seq(const Shape *s, int t) {
    for (int i = 0; i < s->n_seq; i++)
        if (s->seqs[i] == t) return 1;
    return 0;
}
static int has_trip(const Shape *s, int t) {
    for (int i = 0; i < s->n_trip; i++)
        if (s->trips[i] == t) return 1;
    return 0;
}

static int identical_sequence_pairs(const Shape *s) {
    int pairs = 0, i = 0;
    while (i + 1 < s->n_seq) {
        if (s->seqs[i] == s->seqs[i + 1]) {
            pairs++;
            i += 2;
        } else
            i++;
    }
    return pairs;
}

static int set_has_terminal(const Set *x) {
    int n = x->tile % 9;
    if (x->seq) return n == 0 || n == 6;
    return x->tile >= 27 || n == 0 || n == 8;
}

static int outside(const Reading *r) {
    if (r->form != STANDARD) return 0;
    int p = r->pair;
    if (p < 27 && p % 9 != 0 && p % 9 != 8) return 0;
    int any_seq = 0;
    for (int i = 0; i < r->n_sets; i++) {
        if (r->sets[i].seq) any_seq = 1;
        if (!set_has_terminal(&r->sets[i])) return 0;
    }
    return any_seq;
}

/* Regular per-reading yaku; returns a bit mask over the yaku enum. */
static unsigned long long reading_regular(const Facts *f, const Reading *r, const Shape *s) {
    unsigned long long m = 0;
    int std = r->form == STANDARD;
    if (std && f->closed && r->wait == RYANMEN && !is_yakuhai(f, r->pair) && s->n_trip == 0)
        m |= 1ULL << Y_PINFU;
    if (std && f->closed) {
        int p = identical_sequence_pairs(s);
        if (p == 1) m |= 1ULL << Y_IIPEIKOU;
        if (p == 2) m |= 1ULL << Y_RYANPEIKOU;
    }
    if (has_trip(s, f->seat_wind)) m |= 1ULL << Y_SEAT_WIND;
    if (has_trip(s, f->round_wind)) m |= 1ULL << Y_ROUND_WIND;
    if (has_trip(s, 31)) m |= 1ULL << Y_HAKU;
    if (has_trip(s, 32)) m |= 1ULL << Y_HATSU;
    if (has_trip(s, 33)) m |= 1ULL << Y_CHUN;
    if (r->form == CHIITOITSU) m |= 1ULL << Y_CHIITOITSU;
    if (outside(r)) m |= 1ULL << (f->has_honor ? Y_CHANTA : Y_JUNCHAN);
    if (s->n_seq >= 3) {
        for (int b = 0; b <= 18; b += 9)
            if (has_seq(s, b) && has_seq(s, b + 3) && has_seq(s, b + 6)) {
                m |= 1ULL << Y_ITTSU;
                break;
            }
        for (int i = 0; i < s->n_seq; i++) {
            int n = s->seqs[i];
            if (n < 7 && has_seq(s, n + 9) && has_seq(s, n + 18)) {
                m |= 1ULL << Y_SANSHOKU;
                break;
            }
        }
    }
    if (s->n_trip >= 3) {
        for (int i = 0; i < s->n_trip; i++) {
            int n = s->trips[i];
            if (n < 9 && has_trip(s, n + 9) && has_trip(s, n + 18)) {
                m |= 1ULL << Y_SANSHOKU_DOUKOU;
                break;
            }
        }
    }
    if (s->kans == 3) m |= 1ULL << Y_SANKANTSU;
    if (std && s->n_seq == 0) m |= 1ULL << Y_TOITOI;
    if (s->ankou == 3) m |= 1ULL << Y_SANANKOU;
    if (std && r->pair >= 31 && r->pair <= 33) {
        int d = 0;
        for (int i = 0; i < s->n_trip; i++) d += s->trips[i] >= 31;
        if (d == 2) m |= 1ULL << Y_SHOUSANGEN;
    }
    return m;
}

static unsigned long long reading_yakuman(const Facts *f, const Reading *r, const Shape *s) {
    unsigned long long m = 0;
    int std = r->form == STANDARD;
    if (r->form == KOKUSHI) {
        int c = f->closed_counts[f->win_kind];
        if (c == 1) m |= 1ULL << Y_KOKUSHI;
        if (c == 2) m |= 1ULL << Y_KOKUSHI_13;
    }
    if (std && s->ankou == 4) m |= 1ULL << (r->wait == TANKI ? Y_SUUANKOU_TANKI : Y_SUUANKOU);
    int dragons = 0, winds = 0;
    for (int i = 0; i < s->n_trip; i++) {
        dragons += s->trips[i] >= 31;
        winds += s->trips[i] >= 27 && s->trips[i] <= 30;
    }
    if (dragons == 3) m |= 1ULL << Y_DAISANGEN;
    if (std && r->pair >= 27 && r->pair <= 30 && winds == 3) m |= 1ULL << Y_SHOUSUUSHII;
    if (winds == 4) m |= 1ULL << Y_DAISUUSHII;
    if (s->kans == 4) m |= 1ULL << Y_SUUKANTSU;
    return m;
}

static unsigned long long hand_regular(const Facts *f) {
    unsigned long long m = 0;
    int one_suit = f->suits == 1 || f->suits == 2 || f->suits == 4;
    if (f->tsumo && f->closed) m |= 1ULL << Y_MENZEN_TSUMO;
    if (f->riichi) m |= 1ULL << Y_RIICHI;
    if (f->ippatsu) m |= 1ULL << Y_IPPATSU;
    if (f->chankan) m |= 1ULL << Y_CHANKAN;
    if (f->rinshan) m |= 1ULL << Y_RINSHAN;
    if (f->haitei) m |= 1ULL << Y_HAITEI;
    if (f->houtei) m |= 1ULL << Y_HOUTEI;
    if (f->all_simple && (f->closed || f->rules->open_tanyao)) m |= 1ULL << Y_TANYAO;
    if (f->double_riichi) m |= 1ULL << Y_DOUBLE_RIICHI;
    if (f->all_terminal_honor) m |= 1ULL << Y_HONROUTOU;
    if (f->has_honor && one_suit) m |= 1ULL << Y_HONITSU;
    if (!f->has_honor && one_suit) m |= 1ULL << Y_CHINITSU;
    if (f->renhou_flag && f->rules->renhou == 1) m |= 1ULL << Y_RENHOU;
    return m;
}

static unsigned long long hand_yakuman(const Facts *f) {
    unsigned long long m = 0;
    if (f->tenhou) m |= 1ULL << Y_TENHOU;
    if (f->chiihou) m |= 1ULL << Y_CHIIHOU;
    if (f->renhou_flag && f->rules->renhou == 2) m |= 1ULL << Y_RENHOU_YAKUMAN;
    if (f->suits == 0) m |= 1ULL << Y_TSUUIISOU;
    if (f->all_green) m |= 1ULL << Y_RYUUIISOU;
    if (f->all_terminal_honor && !f->has_honor) m |= 1ULL << Y_CHINROUTOU;
    if (!f->has_melds && !f->has_honor && (f->suits == 1 || f->suits == 2 || f->suits == 4)) {
        int base = f->suits == 1 ? 0 : f->suits == 2 ? 9 : 18;
        int ok = 1;
        for (int i = 0; i < 9; i++)
            if (f->closed_counts[base + i] < NINE_GATES[i]) ok = 0;
        if (ok) {
            int wk = f->win_kind;
            if (f->closed_counts[wk] - 1 < NINE_GATES[wk - base])
                m |= 1ULL << Y_CHUUREN;
            else
                m |= 1ULL << Y_JUNSEI_CHUUREN;
        }
    }
    return m;
}

static int han_of(int y, int closed) { return closed ? YAKU[y].han_closed : YAKU[y].han_open; }
static int ym_value(int y, const Rules *r) { return YAKU[y].dbl && r->dbl_variants ? 2 : 1; }

/* The hand-wide facts read_facts derives from the counts (suits, honours, all simples, all
 * terminals/honours, all green); ``total`` is the number of tiles in hand and melds. */
static void facts_shape(Facts *f, int total) {
    f->suits = (f->counts[0] || f->counts[1] || f->counts[2] || f->counts[3] || f->counts[4] ||
                f->counts[5] || f->counts[6] || f->counts[7] || f->counts[8]);
    for (int k = 9; k < 18; k++)
        if (f->counts[k]) { f->suits |= 2; break; }
    for (int k = 18; k < 27; k++)
        if (f->counts[k]) { f->suits |= 4; break; }
    int outside_n = 0, green = 0;
    for (int k = 27; k < 34; k++) f->has_honor |= f->counts[k] != 0;
    for (int k = 0; k < 34; k++) {
        if (TERM_HONOR[k]) outside_n += f->counts[k];
        if (GREEN_KIND[k]) green += f->counts[k];
    }
    f->all_simple = outside_n == 0;
    f->all_terminal_honor = outside_n == total;
    f->all_green = green == total;
}

/* Dora from a list of indicators (tile codes) over the counts ``dc`` (count_dora). */
static int dora_hits(const int *dc, const int *ind, int n, int players) {
    int d = 0;
    for (int i = 0; i < n; i++) d += dc[dora_of(kind_of(ind[i]), players)];
    return d;
}

/* Score the facts of one win (evaluate.evaluate without the Python objects): 1 with *out
 * filled, 0 when no reading has a yaku, -1 when the decompositions overflow (the caller falls
 * back to Python).  The yaku mask, han, fu and yakuman multiple are those of the best reading
 * as evaluate.py ranks them. */
typedef struct {
    int han, fu, mult, pao;
    unsigned long long mask;
} ScoreOut;

static int score_facts(const Facts *fp, ScoreOut *out) {
    const Rules *rules = fp->rules;
    /* readings (reading.readings) */
    static Reading reads[MAX_DEC * 6 + 2];
    int nr = 0;
    DecState ds;
    memcpy(ds.work, fp->closed_counts, sizeof ds.work);
    ds.pair = -1;
    ds.n_seq = ds.n_trip = ds.n_out = ds.overflow = 0;
    int closed_total = 14 - 3 * fp->n_melds;
    if (closed_total % 3 == 2) dec_rec(&ds, 0);
    if (ds.overflow) return -1;
    int wk = fp->win_kind;
    for (int d = 0; d < ds.n_out; d++) {
        const Dec *dec = &ds.out[d];
        Reading base;
        base.form = STANDARD;
        base.pair = dec->pair;
        base.n_sets = dec->n + fp->n_melds;
        for (int i = 0; i < dec->n; i++) base.sets[i] = dec->g[i];
        for (int i = 0; i < fp->n_melds; i++) base.sets[dec->n + i] = fp->meld_sets[i];
        if (dec->pair == wk) {
            reads[nr] = base;
            reads[nr].wait = TANKI;
            nr++;
        }
        int seen_kind[4], seen_tile[4], seen_wait[4], ns = 0;
        for (int i = 0; i < dec->n; i++) {
            const Set *g = &dec->g[i];
            int wait, shanpon_ron = 0;
            if (g->seq) {
                if (!(g->tile <= wk && wk <= g->tile + 2)) continue;
                if (wk == g->tile + 1)
                    wait = KANCHAN;
                else if ((g->tile % 9 == 0 && wk == g->tile + 2) || (g->tile % 9 == 6 && wk == g->tile))
                    wait = PENCHAN;
                else
                    wait = RYANMEN;
            } else {
                if (g->tile != wk) continue;
                wait = SHANPON;
                shanpon_ron = !fp->tsumo;
            }
            int dup = 0;
            for (int k = 0; k < ns; k++)
                if (seen_kind[k] == g->seq && seen_tile[k] == g->tile && seen_wait[k] == wait)
                    dup = 1;
            if (dup) continue;
            seen_kind[ns] = g->seq;
            seen_tile[ns] = g->tile;
            seen_wait[ns] = wait;
            ns++;
            reads[nr] = base;
            reads[nr].wait = wait;
            if (shanpon_ron) reads[nr].sets[i].concealed = 0;
            nr++;
        }
    }
    if (fp->n_melds == 0) {
        int pairs = 0, th = 1, th_sum = 0;
        for (int k = 0; k < 34; k++) {
            pairs += fp->closed_counts[k] == 2;
            if (TERM_HONOR[k]) {
                if (!fp->closed_counts[k]) th = 0;
                th_sum += fp->closed_counts[k];
            }
        }
        if (pairs == 7) {
            reads[nr].form = CHIITOITSU;
            reads[nr].pair = -1;
            reads[nr].wait = TANKI;
            reads[nr].n_sets = 0;
            nr++;
        } else if (th && th_sum == 14) {
            reads[nr].form = KOKUSHI;
            reads[nr].pair = -1;
            reads[nr].wait = TANKI;
            reads[nr].n_sets = 0;
            nr++;
        }
    }
    if (nr == 0) return 0;

    /* scoring every reading (evaluate.evaluate) */
    int closed = fp->closed, payers = rules->players - 1;
    unsigned long long hy = hand_regular(fp), hym = hand_yakuman(fp);
    /* regular hand yaku only count when they are worth han with this hand */
    for (int y = 0; y < N_REGULAR; y++)
        if ((hy >> y & 1) && !han_of(y, closed)) hy &= ~(1ULL << y);
    int dora_total = fp->dora[0] + fp->dora[1] + fp->dora[2];
    int have_best = 0;
    long long bk_total = 0;
    int bk_ym = 0, bk_han = 0, bk_fu = 0;
    unsigned long long best_mask = 0;
    int best_mult = 0;
    for (int i = 0; i < nr; i++) {
        const Reading *r = &reads[i];
        Shape s;
        shape_of(r, &s);
        unsigned long long ym = hym | reading_yakuman(fp, r, &s);
        int han, fu, mult, lim;
        long long base;
        unsigned long long chosen;
        if (ym) {
            int sum = 0, mx = 0;
            for (int y = N_REGULAR; y < N_YAKU; y++)
                if (ym >> y & 1) {
                    int v = ym_value(y, rules);
                    sum += v;
                    if (v > mx) mx = v;
                }
            mult = rules->stacking ? sum : mx;
            han = 13 * mult;
            fu = reading_fu(fp, r);
            base = base_points(han, fu, mult, rules, &lim);
            chosen = ym;
        } else {
            chosen = hy | reading_regular(fp, r, &s);
            for (int y = 0; y < N_REGULAR; y++)
                if ((chosen >> y & 1) && !han_of(y, closed)) chosen &= ~(1ULL << y);
            if (!chosen) continue;
            han = 0;
            for (int y = 0; y < N_REGULAR; y++)
                if (chosen >> y & 1) han += han_of(y, closed);
            han += dora_total;
            fu = reading_fu(fp, r);
            mult = 0;
            base = base_points(han, fu, 0, rules, &lim);
        }
        int ron, fd, fo;
        payment_split(base, fp->dealer, fp->tsumo, &ron, &fd, &fo);
        long long total = !fp->tsumo ? ron : fp->dealer ? (long long)payers * fo
                                                    : fd + (long long)(payers - 1) * fo;
        int kym = mult ? 1 : 0;
        int better = !have_best || total > bk_total ||
                     (total == bk_total &&
                      (kym > bk_ym ||
                       (kym == bk_ym && (han > bk_han || (han == bk_han && fu > bk_fu)))));
        if (better) {
            have_best = 1;
            bk_total = total;
            bk_ym = kym;
            bk_han = han;
            bk_fu = fu;
            best_mask = chosen;
            best_mult = mult;
        }
    }
    if (!have_best) return 0;
    out->han = bk_han;
    out->fu = bk_fu;
    out->mult = best_mult;
    out->mask = best_mask;
    out->pao = 0;
    if (best_mult)
        for (int y = N_REGULAR; y < N_YAKU; y++)
            if ((best_mask >> y & 1) && (rules->pao_mask >> y & 1)) out->pao += ym_value(y, rules);
    return 1;
}
/* A win's per-seat deltas (payments.payments without the Python objects): base points,
 * pao yakuman count, dealer/tsumo flags of the win, winner, dealer, discarder (-1 for a tsumo),
 * honba, deposits and the liable seat (-1 for none). */
static void pay_core(const Rules *r, long long base, long pao_ym, int rdealer, int tsumo, int winner,
                     int dealer, int disc, long honba, long kyotaku, int pao, long long deltas[4]) {
    int n = r->players;
    for (int i = 0; i < 4; i++) deltas[i] = 0;
    long long honba_total = (long long)r->honba_points * honba;
#define PAY(seat, amount)                   \
    do {                                    \
        long long a_ = (amount);            \
        deltas[(seat)] -= a_;               \
        deltas[winner] += a_;               \
    } while (0)
    long long liable = 0;
    if (pao >= 0 && pao_ym) liable = r->pao_whole ? base : 8000LL * pao_ym;
    long long rest = base - liable;
    int ron_factor = rdealer ? 6 : 4;
    if (liable && pao >= 0 && pao != disc) {
        long long lv = ceil100(liable * ron_factor);
        if (disc < 0)
            PAY(pao, lv + honba_total);
        else {
            long long half = lv >= 0 ? lv / 2 : -((-lv + 1) / 2);
            PAY(pao, half + honba_total);
            PAY(disc, lv - half);
        }
        honba_total = 0;
    } else if (liable)
        rest = base;
    if (rest) {
        int ron, fd, fo;
        payment_split(rest, rdealer, tsumo, &ron, &fd, &fo);
        if (disc >= 0)
            PAY(disc, ron + honba_total);
        else {
            long long each = honba_total / (n - 1);
            for (int seat = 0; seat < n; seat++)
                if (seat != winner) PAY(seat, (seat == dealer ? fd : fo) + each);
        }
    }
#undef PAY
    deltas[winner] += (long long)kyotaku * r->riichi_deposit;
}

#endif /* TENPAI_SCORE_CORE_H */
