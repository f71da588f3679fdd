/*
 * Optional compiled rollouts: one Riichi hand played to its end inside C, from a table state whose
 * hidden tiles are filled in, with a built-in policy in every seat -- what search spends.
 *
 * The Python engine (tenpai.rules.riichi.flow.round) is the specification; this file follows its
 * order of events exactly for the hands its policies can produce (chi and pon by the fast
 * policies; kans, their replacement draws and kan dora, chankan and Norths set aside by the
 * fast-kan policies), and tests/search/test_compiled_playout.py and test_compiled_kans.py play
 * the same worlds on both sides.  It holds no second shanten algorithm and no second scorer: the shanten
 * look-ups come from hand/_shanten_core.h (the tables tenpai.hand.tables builds, handed over by
 * configure()) and the scoring from _score_core.h, the pure-C core _score.c uses.
 *
 * run(state, rules, policies, seeds) plays one hand per seed from the same state and returns the
 * results as packed int32 rows (see ROW below); a state that cannot occur is a ValueError naming
 * the field, never a crash.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../../hand/_shanten_core.h"
#include "../../hand/_useful_core.h"
#include "_score_core.h"

#define ABI 7

/* ------------------------------------------------------------------------- rules */

typedef struct {
    Rules sc; /* the scorer's flags */
    int players, abortive_draws, double_ron, triple_ron_abort, nagashi, riichi_min_points,
        riichi_min_wall, riichi_deposit, noten_penalty, karaten_melds;
    int kuikae;   /* 0 none, 1 same_tile, 2 strict (RiichiRules.kuikae) */
    int pao_flow; /* pao_yakuman is not empty: a pon completing the dragons or winds makes
                   * its discarder liable */
    int open_kan_dora_after; /* an open or added kan's dora turns at the next discard or kan */
    int kokushi_robs_ankan, four_kan_abort, nukidora;
} RRules;

/* ------------------------------------------------------------------------- state */

enum { P_TSUMOGIRI, P_GREEDY, P_GREEDY_RANDOM, P_GREEDY_FOLD, P_EFFICIENCY, P_FAST, P_FAST_FOLD,
       P_FAST_KAN, P_FAST_KAN_FOLD, P_PASSIVE, N_POLICIES };
/* P_PASSIVE: a seat that takes no part in the hand but its draws -- it discards what it drew,
 * never wins (no tsumo, no ron, no chankan), never calls, never declares riichi or a kan (the
 * one-player leaf of tenpai.search: the searched seat alone plays; passive.PassivePolicy is the
 * reference).  Tsumogiri with the wins taken away. */
/* What a seat to move may set down instead of discarding (kan policies only). */
enum { KAN_NONE, KAN_ANKAN, KAN_KAKAN, KAN_KITA };
#define NORTH 30
enum { PH_ACT, PH_CLAIM, PH_CALLED }; /* PH_CALLED: the discard owed after a chi or pon */
enum { K_HORA, K_EXHAUSTIVE, K_ABORTIVE };
enum { A_NONE, A_FOUR_RIICHI, A_FOUR_WINDS, A_FOUR_KANS, A_TRIPLE_RON, A_NINE, A_NAGASHI };
enum { MT_CHI, MT_PON, MT_DAIMINKAN, MT_KAKAN, MT_ANKAN };

#define MAX_LIVE 136
#define MAX_RIVER 48
/* One result row: kind, winners (bit mask), tenpai (bit mask), abort/settlement code, deposits
 * left, four final scores, four deltas of the hand. */
#define ROW 13

typedef struct {
    int type, n;
    int tiles[4];
} CMeld;

typedef struct {
    int n, bakaze, oya, honba, kyotaku;
    int scores[4];
    int live[MAX_LIVE], next, end;
    int dora[5], ura[5], n_dora, pending_dora;
    unsigned char c37[4][37];
    int c34[4][34];
    Hand hand[4]; /* the concealed kinds as the shanten look-ups keep them, moved tile by tile */
    int drawn, turn, after_kan, phase;
    CMeld melds[4][4];
    int n_melds[4], open[4], nuki[4];
    int river[4][MAX_RIVER];
    unsigned char river_called[4][MAX_RIVER];
    int n_river[4], discards_made[4];
    unsigned long long river_kinds[4];
    int any_call;
    int riichi[4], double_riichi[4], ippatsu[4], furiten_temp[4], furiten_riichi[4], pao[4];
    int reach_pending;
    /* kans: who declared each (four-kan abort), the dead wall's replacement tiles still there
     * (in draw order) and how many replacement draws the round may still make; past the dead
     * wall's tiles (three players' Norths) a replacement is the live wall's last tile */
    int kans_by[4], n_kans;
    int rinshan[4], n_rinshan, rinshan_next, repl_left;
    int chankan; /* a win being scored robs an added kan (the chankan yaku, no houtei) */
    unsigned long long banned; /* kinds the seat to move may not discard (kuikae, PH_CALLED) */
    int yaku_rule; /* the open-hand yaku rule of every seat's discards (yaku_avoid): YR_* */
    int visible[34];
    /* waits per seat, cached until the hand changes */
    unsigned long long waits[4];
    int waits_ok[4];
    uint64_t rng;
} St;

typedef struct {
    int kind, winners, tenpai, code;
    int deltas[4];
} Outcome;

static inline int kind_of_code(int t) { return kind_of(t); }
static const int RED_OF_KIND[34] = {[4] = 34, [13] = 35, [22] = 36};

static int tables_ready = 0;

/* ------------------------------------------------------------------------- shanten */

/* Waits of a 3k+1-tile hand as a bit mask over kinds (kinds held four times excluded); -1 if the
 * look-up fell back (never for a valid hand). */
static long long waits_mask(const Hand *h) {
    int s = hand_riichi(h);
    if (s == FALLBACK) return -1;
    if (s != 0) return 0;
    int row[34];
    if (hand_draw_row(h, row) == FALLBACK) return -1;
    unsigned long long m = 0;
    for (int k = 0; k < 34; k++)
        if (row[k] == -1) m |= 1ULL << k;
    return (long long)m;
}

static int bad_lookup = 0; /* set when a shanten look-up fell back: the run reports an error */

static unsigned long long waits_of(St *st, int s) {
    if (!st->waits_ok[s]) {
        long long w = waits_mask(&st->hand[s]);
        if (w < 0) {
            bad_lookup = 1;
            w = 0;
        }
        st->waits[s] = (unsigned long long)w;
        st->waits_ok[s] = 1;
    }
    return st->waits[s];
}

/* ------------------------------------------------------------------------- tiles in hands */

static inline void add_tile(St *st, int s, int t) {
    st->c37[s][t]++;
    st->c34[s][kind_of_code(t)]++;
    hand_move(&st->hand[s], kind_of_code(t), +1);
    st->waits_ok[s] = 0;
}

static inline void remove_tile(St *st, int s, int t) {
    st->c37[s][t]--;
    st->c34[s][kind_of_code(t)]--;
    hand_move(&st->hand[s], kind_of_code(t), -1);
    st->waits_ok[s] = 0;
}

static inline int remaining(const St *st) { return st->end - st->next; }

static inline uint64_t next_rand(St *st) {
    /* splitmix64: small, fast and fully determined by the seed */
    uint64_t z = (st->rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ------------------------------------------------------------------------- scoring */

static int first_go_around(const St *st, int s) { return !st->any_call && st->discards_made[s] == 0; }

/* Score a win of seat s on tile t (tsumo: already in hand); 1 with deltas, 0 no yaku, -1 the
 * scorer could not decide (decomposition overflow: never for a legal hand). */
static int score_win(const St *st, const RRules *r, int s, int target, int t, int tsumo,
                     long honba, long kyotaku, long long deltas[4]) {
    Facts f;
    memset(&f, 0, sizeof f);
    f.rules_v = r->sc;
    f.rules = &f.rules_v;
    int n_closed = 0;
    for (int code = 0; code < 37; code++) {
        int c = st->c37[s][code];
        if (!c) continue;
        f.closed_counts[kind_of_code(code)] += c;
        if (code >= 34) f.reds += c;
        n_closed += c;
    }
    if (!tsumo) {
        f.closed_counts[kind_of_code(t)]++;
        if (t >= 34) f.reds++;
        n_closed++;
    }
    memcpy(f.counts, f.closed_counts, sizeof f.counts);
    int total = n_closed;
    f.closed = 1;
    f.n_melds = st->n_melds[s];
    f.has_melds = f.n_melds > 0;
    for (int i = 0; i < f.n_melds; i++) {
        const CMeld *m = &st->melds[s][i];
        int lo = 99;
        for (int j = 0; j < m->n; j++) {
            int k = kind_of_code(m->tiles[j]);
            if (k < lo) lo = k;
            f.counts[k]++;
            f.reds += m->tiles[j] >= 34;
        }
        total += m->n;
        int open = m->type != MT_ANKAN;
        if (open) f.closed = 0;
        f.meld_sets[i] = (Set){(unsigned char)(m->type == MT_CHI), (unsigned char)lo,
                               (unsigned char)open, (unsigned char)(m->n == 4),
                               (unsigned char)!open};
    }
    f.nukidora = st->nuki[s];
    f.win_kind = kind_of_code(t);
    f.tsumo = tsumo;
    int n = st->n;
    f.seat_wind = 27 + ((s - st->oya) % n + n) % n;
    f.round_wind = 27 + st->bakaze;
    f.dealer = f.seat_wind == 27;
    int last = remaining(st) == 0;
    int first = first_go_around(st, s);
    int rinshan = tsumo && st->after_kan;
    f.riichi = st->riichi[s] && !st->double_riichi[s];
    f.double_riichi = st->double_riichi[s];
    f.ippatsu = st->ippatsu[s] && !rinshan;
    f.haitei = tsumo && last && !st->after_kan;
    f.houtei = !tsumo && last && !st->chankan;
    f.chankan = st->chankan;
    f.rinshan = rinshan;
    f.tenhou = tsumo && first && s == st->oya;
    f.chiihou = tsumo && first && s != st->oya;
    facts_shape(&f, total);
    int dc[34];
    memcpy(dc, f.counts, sizeof dc);
    dc[30] += f.nukidora;
    f.dora[0] = f.nukidora + dora_hits(dc, st->dora, st->n_dora, r->players);
    if (st->riichi[s] && (f.riichi || f.double_riichi))
        f.dora[2] = dora_hits(dc, st->ura, st->n_dora, r->players);
    f.dora[1] = r->sc.red_fives ? f.reds : 0;
    ScoreOut so;
    int got = score_facts(&f, &so);
    if (got <= 0) return got;
    int lim;
    long long base = base_points(so.han, so.fu, so.mult, &r->sc, &lim);
    int pao = st->pao[s] >= 0 && st->pao[s] != s ? st->pao[s] : -1;
    pay_core(&r->sc, base, so.pao, f.dealer, tsumo, s, st->oya, tsumo ? -1 : target, honba,
             kyotaku, pao, deltas);
    return 1;
}

/* ------------------------------------------------------------------------- the policies */

static const double HONOR_BY_LEFT[4] = {0.0, 0.8, 2.5, 4.0};

static inline double live_factor(const int *seen, int base, const int *numbers, int count) {
    double factor = 1.0;
    for (int i = 0; i < count; i++) {
        int c = seen[base + numbers[i] - 1];
        if (c >= 4) return 0.0;
        if (c == 3) factor *= 0.5;
    }
    return factor;
}

/* tenpai.agents.defensive.danger, term by term in the same order (so the same doubles). */
static double danger(int kind, unsigned long long safe, const int *seen) {
    if (safe >> kind & 1) return 0.0;
    int left = 4 - seen[kind];
    if (left < 0) left = 0;
    if (kind >= 27) return HONOR_BY_LEFT[left < 3 ? left : 3];
    int n = kind % 9 + 1;
    int base = kind - (n - 1);
    double d = 0.0;
    if (n >= 4 && !(safe >> (base + n - 4) & 1)) {
        int nums[2] = {n - 2, n - 1};
        d += 4.0 * live_factor(seen, base, nums, 2);
    }
    if (n <= 6 && !(safe >> (base + n + 2) & 1)) {
        int nums[2] = {n + 1, n + 2};
        d += 4.0 * live_factor(seen, base, nums, 2);
    }
    if (2 <= n && n <= 8) {
        int nums[2] = {n - 1, n + 1};
        d += 1.0 * live_factor(seen, base, nums, 2);
    }
    if (n == 3) {
        int nums[2] = {1, 2};
        d += 1.0 * live_factor(seen, base, nums, 2);
    }
    if (n == 7) {
        int nums[2] = {8, 9};
        d += 1.0 * live_factor(seen, base, nums, 2);
    }
    d += 1.5 * (left < 3 ? left : 3) / 3;
    return d;
}

/* The policies that chi and pon (EfficiencyAgent._claim), fold against riichi, declare kans. */
static inline int calls_policy(int p) {
    return p == P_FAST || p == P_FAST_FOLD || p == P_FAST_KAN || p == P_FAST_KAN_FOLD;
}
static inline int fold_policy(int p) {
    return p == P_GREEDY_FOLD || p == P_FAST_FOLD || p == P_FAST_KAN_FOLD;
}
static inline int kan_policy(int p) { return p == P_FAST_KAN || p == P_FAST_KAN_FOLD; }

static inline int is_simple(int k) { return k < 27 && k % 9 >= 1 && k % 9 <= 7; }

/* The open-hand yaku rule (st->yaku_rule: YR_STRICT or YR_TIES; TENPAI_SEARCH_PLAYOUT_YAKU;
 * tenpai.search.policies.yaku_avoid is the reference): the kinds an open hand with no secured
 * yaku (no pon, kan or concealed triplet of a dragon, its seat wind or the round wind) keeps
 * out of its shanten-greedy discard choice -- every simple when all its melds are simples
 * (the all-simples route: its non-simples go first), else the value honours it holds a pair
 * of (the pair may still become a pon).  YR_STRICT keeps them out while it holds anything else, YR_TIES only among
 * the discards of the best shanten. */
enum { YR_OFF, YR_STRICT, YR_TIES };
static unsigned long long yaku_avoid(const St *st, int s) {
    if (!st->yaku_rule || !st->open[s]) return 0;
    int n = st->n, seat_wind = 27 + ((s - st->oya) % n + n) % n;
    unsigned long long value = (7ULL << 31) | (1ULL << seat_wind) | (1ULL << (27 + st->bakaze));
    int simples = 1;
    for (int i = 0; i < st->n_melds[s]; i++) {
        const CMeld *m = &st->melds[s][i];
        if (m->type != MT_CHI && (value >> kind_of_code(m->tiles[0]) & 1)) return 0;
        for (int j = 0; j < m->n; j++)
            if (!is_simple(kind_of_code(m->tiles[j]))) simples = 0;
    }
    for (int k = 27; k < 34; k++)
        if ((value >> k & 1) && st->c34[s][k] >= 3) return 0;
    unsigned long long avoid = 0;
    for (int k = 0; k < 34; k++) {
        int c = st->c34[s][k];
        if (c && (simples ? is_simple(k) : ((value >> k & 1) && c >= 2))) avoid |= 1ULL << k;
    }
    return avoid;
}

static inline int edge_of(int k) {
    if (TERM_HONOR[k]) return 0;
    int num = k % 9 + 1;
    return (num == 2 || num == 8) ? 1 : 2;
}

typedef struct {
    int after[34];  /* shanten after discarding each kind (99: not held) */
    int total[34];  /* live effective tiles after that discard (-1: not computed yet) */
    int left[34];   /* 4 - own - visible, from the 14-tile hand (at the first count) */
    int total13[34]; /* the efficiency agent's count: copies left beside the 13-tile hand */
    unsigned long long left_bits[3]; /* bit j of left_bits[i]: bit i of left[j] (0-4) */
    int left_plain;  /* some left[j] outside 0-7: left_in() sums them one by one */
    int base_ready;  /* options_counting() done */
    unsigned long long part_ready; /* bit k: part[k] holds useful_part() of discarding k */
    UsefulPart part[34];
    UsefulBase useful; /* the 14-tile hand's groups and minimal splits (useful_begin) */
} Options;

/* Each seat's groups' draws (see UsefulDraws), kept from one decision of the seat to its next
 * under the groups' keys: a turn changes at most two of the four groups, and the others' draw
 * classes are not looked up again.  Keyed by the pattern itself, so what they hold never
 * depends on which playout or state left it there. */
static UsefulDraws seat_draws[4];

/* Shanten after each discard (the first part of discard_ukeire), from the 14-tile hand's
 * minimal splits: one class look-up per discard (useful_discard_shanten) instead of a whole
 * hand's look-ups.  Built with -DTENPAI_CHECK_SPLITS, each is also looked up the old way and a
 * difference fails the run. */
static int options_init(St *st, int s, Options *o) {
    const Hand *h = &st->hand[s];
    int best = 99;
    o->base_ready = 0;
    o->part_ready = 0;
    int ok = useful_begin(h, &o->useful, &seat_draws[s]) == 0;
    for (int k = 0; k < 34; k++) {
        o->total[k] = -1;
        o->after[k] = 99;
    }
    for (unsigned long long held = h->held; held; held &= held - 1) { /* the kinds held */
        int k = lowest_kind(held);
        int v = ok ? useful_discard_shanten(h, &o->useful, k) : FALLBACK;
#ifdef TENPAI_CHECK_SPLITS
        Hand x = *h;
        hand_move(&x, k, -1);
        if (hand_riichi(&x) != v) v = FALLBACK;
#endif
        if (v == FALLBACK) {
            bad_lookup = 1;
            v = 99;
        }
        o->after[k] = v;
        if (v < best) best = v;
    }
    return best;
}

/* What every count of this decision shares, made at the first count (a decision whose best
 * discard is alone makes none): the copies left, also as bit planes. */
static void options_counting(St *st, int s, Options *o) {
    const int *own = st->c34[s], *vis = st->visible;
    /* eight kinds' counts a byte each, then each bit plane of those eight gathered into one
     * byte by a multiplication (byte j's bit lands on bit 56 + j, no two terms meet) */
    const uint64_t ones = 0x0101010101010101ULL, gather = 0x0102040810204080ULL;
    uint64_t b0 = 0, b1 = 0, b2 = 0, odd = 0;
    for (int base = 0; base < 34; base += 8) {
        uint64_t w = 0;
        int n = 34 - base < 8 ? 34 - base : 8;
        for (int j = 0; j < n; j++) {
            int v = o->left[base + j] = 4 - own[base + j] - vis[base + j];
            w |= (uint64_t)(v & 0xFF) << (8 * j);
        }
        odd |= w & 0xF8F8F8F8F8F8F8F8ULL; /* a count outside 0-7 */
        b0 |= ((w & ones) * gather >> 56) << base;
        b1 |= ((w >> 1 & ones) * gather >> 56) << base;
        b2 |= ((w >> 2 & ones) * gather >> 56) << base;
    }
    o->left_bits[0] = b0;
    o->left_bits[1] = b1;
    o->left_bits[2] = b2;
    o->left_plain = odd != 0; /* never in a state read_state accepts */
    o->base_ready = 1;
}

static inline int popcount34(unsigned long long x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The sum of left[j] over the kinds j in ``mask``, by bit planes (the kinds in a mask are too
 * irregular for a branch per kind). */
static inline int left_in(const Options *o, unsigned long long mask) {
    if (o->left_plain) {
        int total = 0;
        for (int j = 0; j < 34; j++)
            if (mask >> j & 1) total += o->left[j];
        return total;
    }
    return popcount34(mask & o->left_bits[0]) + 2 * popcount34(mask & o->left_bits[1]) +
           4 * popcount34(mask & o->left_bits[2]);
}

/* useful_part() of discarding k, made once per decision (NULL on a failure: the run reports
 * an inconsistency).  The shanten it finds must be the one options_init looked up. */
static const UsefulPart *option_part(St *st, int s, Options *o, int k) {
    UsefulPart *p = &o->part[k];
    if (!(o->part_ready >> k & 1)) {
        if (!o->base_ready) options_counting(st, s, o);
        if (bad_lookup || useful_part(&st->hand[s], &o->useful, k, p) == FALLBACK ||
            p->best != o->after[k]) {
            bad_lookup = 1;
            return NULL;
        }
        o->part_ready |= 1ULL << k;
    }
    return p;
}

/* total13 from a total and its mask: tenpai.agents.efficiency counts what is left beside the
 * hand after the discard (the discarded copy is one more left) and, at three players, nothing
 * on 2m-8m. */
static inline int count13(St *st, Options *o, int k, int total, unsigned long long mask) {
    int t13 = total;
    if (st->n == 3) {
        mask &= ~0xFEULL;
        t13 = left_in(o, mask);
    }
    return t13 + (int)(mask >> k & 1);
}

/* The effective-tile total of discarding kind k (the rest of discard_ukeire), computed once:
 * the kinds whose draw lowers the shanten come from _useful_core.h (a few vector operations per
 * discard instead of a draw row of 34 table look-ups). */
static int option_total(St *st, int s, Options *o, int k) {
    if (o->total[k] >= 0) return o->total[k];
    const UsefulPart *p = option_part(st, s, o, k);
    unsigned long long mask = 0;
    if (p == NULL || useful_finish(&st->hand[s], p, &mask) == FALLBACK) {
        bad_lookup = 1;
        mask = 0;
    }
    int total = left_in(o, mask);
    o->total[k] = total;
    o->total13[k] = count13(st, o, k, total, mask);
    return total;
}

/* How the policies count tied discards: 0 skips the count of a discard whose bound
 * (option_bound) shows it cannot beat the best so far; 1 counts every tied discard (the
 * reference the tests compare with); 2 skips as 0 but also counts each bounded discard and
 * fails the run when the count exceeds its bound.  Set by _count_mode() (tests only). */
static int count_mode = 0;

/* An upper bound on option_total(k) (and in *bound13 on total13[k]): the count with every
 * candidate draw of k's own group taken as effective (useful_part_bound), so without that
 * group's look-ups, which are what a count adds to the part; -1 when there is none (then the
 * caller counts).  With count_mode 2, the exact count is made too and one above its bound
 * fails the run. */
static int option_bound(St *st, int s, Options *o, int k, int *bound13) {
    if (count_mode == 1) return -1;
    if (o->total[k] >= 0) {
        *bound13 = o->total13[k];
        return o->total[k];
    }
    const UsefulPart *p = option_part(st, s, o, k);
    if (p == NULL) return -1;
    unsigned long long mask = useful_part_bound(p);
    int total = left_in(o, mask);
    *bound13 = count13(st, o, k, total, mask);
    if (count_mode == 2 &&
        (option_total(st, s, o, k) > total || o->total13[k] > *bound13))
        bad_lookup = 1;
    return total;
}

/* tenpai.agents.efficiency.best_discard: the first candidate in legal order (the hand's tile
 * codes ascending, the drawn tile last when it is the only copy of its code) of least
 * (shanten, -live tiles left beside the 13-tile hand, edge + red); with ``ready_only`` only
 * discards that keep the hand ready (the riichi discards). */
static int choose_efficiency(St *st, int s, Options *o, int ready_only) {
    int best = -1, bk_sh = 0, bk_total = 0, bk_edge = 0;
    int drawn_alone = st->drawn >= 0 && st->c37[s][st->drawn] == 1;
    for (int i = 0; i < 38; i++) {
        int code;
        if (i < 37) {
            code = i;
            int held = st->c37[s][code] - (code == st->drawn);
            if (held <= 0) continue;
        } else {
            if (!drawn_alone) break;
            code = st->drawn;
        }
        int k = kind_of_code(code);
        if (ready_only && o->after[k] != 0) continue;
        if (st->banned >> k & 1) continue; /* kuikae: not among the legal discards */
        int sh = o->after[k], edge = edge_of(k) + (code >= 34);
        if (best >= 0 && sh > bk_sh) continue; /* the live tiles cannot matter */
        if (best < 0 || sh < bk_sh) {
            best = code;
            bk_sh = sh;
            bk_total = -1; /* counted when a rival of the same shanten needs it */
            bk_edge = edge;
            continue;
        }
        if (bk_total < 0) {
            option_total(st, s, o, kind_of_code(best));
            bk_total = o->total13[kind_of_code(best)];
        }
        int bound13 = 0;
        if (option_bound(st, s, o, k, &bound13) >= 0 &&
            (bound13 < bk_total || (bound13 == bk_total && edge >= bk_edge)))
            continue; /* cannot beat the best so far: not counted */
        option_total(st, s, o, k);
        int total = o->total13[k];
        if (total > bk_total || (total == bk_total && edge < bk_edge)) {
            best = code;
            bk_total = total;
            bk_edge = edge;
        }
    }
    return best;
}

/* eff_key(a) < eff_key(b): lower shanten, then more effective tiles, then the outer tile. */
static int eff_less(St *st, int s, Options *o, int a, int b) {
    if (o->after[a] != o->after[b]) return o->after[a] < o->after[b];
    int ta = option_total(st, s, o, a), tb = option_total(st, s, o, b);
    if (ta != tb) return ta > tb;
    return edge_of(a) < edge_of(b);
}

static int eff_equal(St *st, int s, Options *o, int a, int b) {
    return o->after[a] == o->after[b] && option_total(st, s, o, a) == option_total(st, s, o, b) &&
           edge_of(a) == edge_of(b);
}

/* The policy's discard kind for seat s after a draw; *reach is set when it declares riichi.
 * The efficiency policy returns a tile code instead (its choice of copy is its own). */
static int choose_discard(St *st, const RRules *r, int s, int policy, int *reach) {
    *reach = 0;
    Options o;
    int best_s = options_init(st, s, &o);
    int best = -1;
    /* after a call (fast policies only): the kinds kuikae bans are not offered at all */
    unsigned long long ban = st->banned;
    if (ban) {
        best_s = 99;
        for (int k = 0; k < 34; k++)
            if (st->c34[s][k] && !(ban >> k & 1) && o.after[k] < best_s) best_s = o.after[k];
    }
    /* the open-hand yaku rule narrows the greedy choice (not the fold below, not efficiency) */
    unsigned long long choose_ban = ban, avoid = yaku_avoid(st, s) & ~ban;
    if (avoid && policy != P_EFFICIENCY && st->yaku_rule == YR_STRICT &&
        (st->hand[s].held & ~ban & ~avoid)) {
        choose_ban = ban | avoid;
        best_s = 99;
        for (int k = 0; k < 34; k++)
            if (st->c34[s][k] && !(choose_ban >> k & 1) && o.after[k] < best_s)
                best_s = o.after[k];
    } else if (avoid && policy != P_EFFICIENCY && st->yaku_rule == YR_TIES) {
        for (int k = 0; k < 34; k++)
            if (st->c34[s][k] && !((ban | avoid) >> k & 1) && o.after[k] == best_s) {
                choose_ban = ban | avoid; /* a discard of the best shanten outside avoid */
                break;
            }
    }
    if (policy == P_EFFICIENCY) {
        *reach = !st->riichi[s] && !st->open[s] && st->scores[s] >= r->riichi_min_points &&
                 remaining(st) >= r->riichi_min_wall && best_s <= 0;
        return choose_efficiency(st, s, &o, *reach);
    }
    if (policy == P_GREEDY_RANDOM) {
        int ties[34], nt = 0;
        for (int k = 0; k < 34; k++) {
            if (o.after[k] != best_s || (choose_ban >> k & 1)) continue;
            if (best < 0 || eff_less(st, s, &o, k, best)) {
                best = k;
                nt = 0;
                ties[nt++] = k;
            } else if (eff_equal(st, s, &o, k, best))
                ties[nt++] = k;
        }
        if (nt > 1) best = ties[next_rand(st) % (uint64_t)nt];
    } else {
        /* eff_less's order -- the most live effective tiles, then the outer tile, then the
         * first kind -- with the counts made only where they can decide: the tied discards are
         * taken by their bounds (option_bound), highest first, and once a count is made, a
         * discard whose bound is below it (or equal to it, without a lower edge or an earlier
         * kind) cannot win and is not counted; the ones after it are bounded lower still. */
        int cand[34], ub[34], nc = 0;
        for (unsigned long long held = st->hand[s].held & ~choose_ban; held; held &= held - 1) {
            int k = lowest_kind(held);
            if (o.after[k] == best_s) cand[nc++] = k;
        }
        if (nc == 1) best = cand[0]; /* alone: no count */
        if (nc > 1) {
            for (int i = 0; i < nc; i++) {
                int b13 = 0, b = option_bound(st, s, &o, cand[i], &b13);
                ub[i] = b < 0 ? 1 << 20 : b; /* no bound: counted first */
                /* insertion by bound, highest first, kind order among equals */
                int k = cand[i], j = i;
                for (b = ub[i]; j > 0 && ub[j - 1] < b; j--) {
                    ub[j] = ub[j - 1];
                    cand[j] = cand[j - 1];
                }
                ub[j] = b;
                cand[j] = k;
            }
            int bt = -1, be = 0;
            for (int i = 0; i < nc; i++) {
                int k = cand[i], e = edge_of(k);
                if (bt >= 0) {
                    if (ub[i] < bt) break;
                    if (ub[i] == bt && (e > be || (e == be && k > best))) continue;
                }
                int t = option_total(st, s, &o, k);
                if (bt < 0 || t > bt || (t == bt && (e < be || (e == be && k < best)))) {
                    best = k;
                    bt = t;
                    be = e;
                }
            }
        }
    }
    if (best < 0) return -1;
    if (fold_policy(policy) && !st->riichi[s] &&
        o.after[best] >= 1) {
        int threats[4], nth = 0;
        for (int x = 0; x < st->n; x++)
            if (x != s && st->riichi[x]) threats[nth++] = x;
        if (nth) {
            int seen[34];
            for (int k = 0; k < 34; k++) seen[k] = st->visible[k] + st->c34[s][k];
            int pick = -1;
            double pick_d = 0.0;
            for (int k = 0; k < 34; k++) {
                if (!st->c34[s][k] || (ban >> k & 1)) continue;
                double d = 0;
                for (int i = 0; i < nth; i++) d += danger(k, st->river_kinds[threats[i]], seen);
                if (pick < 0 || d < pick_d || (d == pick_d && eff_less(st, s, &o, k, pick))) {
                    pick = k;
                    pick_d = d;
                }
            }
            return pick;
        }
    }
    if (!st->riichi[s] && !st->open[s] && st->scores[s] >= r->riichi_min_points &&
        remaining(st) >= r->riichi_min_wall && best_s <= 0)
        *reach = 1;
    return best;
}

/* The tile code the seat to move discards (after a draw that did not win); -1 on a failure. */
static int own_discard(St *st, const RRules *r, int s, int policy, int *reach) {
    *reach = 0;
    /* tsumogiri (and passive) after a call (no drawn tile: a state exported there) discards
     * as greedy */
    if (st->riichi[s] || ((policy == P_TSUMOGIRI || policy == P_PASSIVE) && st->drawn >= 0))
        return st->drawn;
    int k = choose_discard(st, r, s, policy, reach);
    if (k < 0) return -1;
    if (policy == P_EFFICIENCY) return k; /* already a tile code */
    /* the plain copy before a red five (tenpai.search.policies._discard_of) */
    if (st->c37[s][k]) return k;
    if (RED_OF_KIND[k] && st->c37[s][RED_OF_KIND[k]]) return RED_OF_KIND[k];
    return -1;
}

/* ------------------------------------------------------------------------- the hand */

static void end_result(Outcome *out, int kind, int code) {
    out->kind = kind;
    out->code = code;
}

static void flip_pending_dora(St *st) {
    while (st->pending_dora > 0 && st->n_dora < 5) {
        st->pending_dora--;
        st->visible[kind_of_code(st->dora[st->n_dora])]++;
        st->n_dora++;
    }
}

static void discard(St *st, int s, int code, int reach) {
    if (st->n_river[s] >= MAX_RIVER) { /* only a forged state gets here */
        bad_lookup = 1;
        return;
    }
    flip_pending_dora(st);
    remove_tile(st, s, code);
    st->river[s][st->n_river[s]] = code;
    st->river_called[s][st->n_river[s]] = 0;
    st->n_river[s]++;
    st->river_kinds[s] |= 1ULL << kind_of_code(code);
    st->visible[kind_of_code(code)]++;
    st->discards_made[s]++;
    st->drawn = -1;
    st->banned = 0;
    if (reach) {
        st->reach_pending = s;
        st->riichi[s] = 1;
        st->double_riichi[s] = st->discards_made[s] == 1 && !st->any_call;
    } else if (st->riichi[s])
        st->ippatsu[s] = 0;
    st->furiten_temp[s] = 0;
    st->phase = PH_CLAIM;
}

static int furiten(St *st, int s) {
    if (st->furiten_temp[s] || st->furiten_riichi[s]) return 1;
    return (waits_of(st, s) & st->river_kinds[s]) != 0;
}

static int four_winds(const St *st) {
    if (st->n != 4 || st->any_call) return 0;
    for (int s = 0; s < 4; s++)
        if (st->discards_made[s] != 1 || st->n_river[s] < 1) return 0;
    int k = kind_of_code(st->river[0][0]);
    if (k < 27 || k > 30) return 0;
    for (int s = 1; s < 4; s++)
        if (kind_of_code(st->river[s][0]) != k) return 0;
    return 1;
}

static int nagashi(const St *st, int s) {
    if (!st->n_river[s]) return 0;
    for (int i = 0; i < st->n_river[s]; i++)
        if (st->river_called[s][i] || !TERM_HONOR[kind_of_code(st->river[s][i])]) return 0;
    return 1;
}

static void exhaustive(St *st, const RRules *r, Outcome *out) {
    int n = st->n, tenpai[4] = {0, 0, 0, 0}, ready = 0, any_nagashi = 0;
    for (int s = 0; s < n; s++) {
        unsigned long long w = waits_of(st, s);
        if (r->karaten_melds) {
            int held[34];
            memcpy(held, st->c34[s], sizeof held);
            for (int i = 0; i < st->n_melds[s]; i++)
                for (int j = 0; j < st->melds[s][i].n; j++)
                    held[kind_of_code(st->melds[s][i].tiles[j])]++;
            held[30] += st->nuki[s];
            for (int k = 0; k < 34; k++)
                if ((w >> k & 1) && held[k] < 4) tenpai[s] = 1;
        } else
            tenpai[s] = w != 0;
        ready += tenpai[s];
    }
    for (int i = 0; i < 4; i++) out->deltas[i] = 0;
    for (int s = 0; s < n; s++) {
        if (!(r->nagashi && nagashi(st, s))) continue;
        any_nagashi = 1;
        int dealer = s == st->oya;
        int ron, fd, fo;
        payment_split(2000, dealer, 1, &ron, &fd, &fo);
        for (int x = 0; x < n; x++) {
            if (x == s) continue;
            int amount = x == st->oya ? fd : fo;
            out->deltas[x] -= amount;
            out->deltas[s] += amount;
        }
    }
    if (!any_nagashi && ready > 0 && ready < n) {
        int pot = r->noten_penalty;
        for (int s = 0; s < n; s++) {
            /* Python's floor division of -pot by the noten count */
            int q = n - ready;
            int neg = -((pot + q - 1) / q);
            out->deltas[s] = tenpai[s] ? pot / ready : neg;
        }
    }
    for (int s = 0; s < n; s++) st->scores[s] += out->deltas[s];
    out->tenpai = 0;
    for (int s = 0; s < n; s++) out->tenpai |= tenpai[s] << s;
    end_result(out, K_EXHAUSTIVE, any_nagashi ? A_NAGASHI : A_NONE);
}

static void draw(St *st, int s) {
    int t = st->live[st->next++];
    st->turn = s;
    st->drawn = t;
    st->after_kan = 0;
    add_tile(st, s, t);
    st->phase = PH_ACT;
}

/* Settle rons (several in turn order from the discarder) or a tsumo; returns -1 on a scorer
 * failure. */
static int settle_wins(St *st, const RRules *r, const int *seats, int nw, int target, int tile,
                       int tsumo, Outcome *out) {
    long long total[4] = {0, 0, 0, 0};
    for (int i = 0; i < nw; i++) {
        long long d[4];
        int got = score_win(st, r, seats[i], target, tile, tsumo, i == 0 ? st->honba : 0,
                            i == 0 ? st->kyotaku : 0, d);
        if (got <= 0) return -1;
        for (int j = 0; j < st->n; j++) total[j] += d[j];
        out->winners |= 1 << seats[i];
    }
    for (int j = 0; j < 4; j++) out->deltas[j] = (int)total[j];
    for (int j = 0; j < st->n; j++) st->scores[j] += (int)total[j];
    st->kyotaku = 0;
    st->reach_pending = -1;
    end_result(out, K_HORA, A_NONE);
    return 0;
}

/* ------------------------------------------------------------------------- calls (fast policies) */

/* RiichiRound._rule_banned_after_call: the called kind, and under ``strict`` kuikae the kind at
 * the other end of a chi's run (a, b: the consumed kinds). */
static unsigned long long kuikae_ban(const RRules *r, int k, int a, int b, int chi) {
    if (r->kuikae == 0) return 0;
    unsigned long long ban = 1ULL << k;
    if (!chi || r->kuikae != 2) return ban;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    if (k < lo && hi % 9 < 8)
        ban |= 1ULL << (hi + 1);
    else if (k > hi && lo % 9 > 0)
        ban |= 1ULL << (lo - 1);
    return ban;
}

/* TableRound._has_discard_after: some tile left after the call may be discarded. */
static int has_discard_after(const St *st, int s, int a, int b, unsigned long long ban) {
    for (int k = 0; k < 34; k++) {
        int c = st->c34[s][k] - (k == a) - (k == b);
        if (c > 0 && !(ban >> k & 1)) return 1;
    }
    return 0;
}

/* EfficiencyAgent._keeps_a_yaku: a pon of a dragon or of one's seat or round wind, or an
 * all-simples hand (concealed tiles, melds and the called tile). */
static int keeps_a_yaku(const St *st, int s, int k, int pon) {
    int n = st->n, seat_wind = 27 + ((s - st->oya) % n + n) % n;
    if (pon && (k >= 31 || k == seat_wind || k == 27 + st->bakaze)) return 1;
    if (!is_simple(k)) return 0;
    for (int j = 0; j < 34; j++)
        if (st->c34[s][j] && !is_simple(j)) return 0;
    for (int i = 0; i < st->n_melds[s]; i++)
        for (int j = 0; j < st->melds[s][i].n; j++)
            if (!is_simple(kind_of_code(st->melds[s][i].tiles[j]))) return 0;
    return 1;
}

/* The best shanten after calling with the consumed kinds a and b and discarding any kind
 * (EfficiencyAgent._claim's ``sh``); kuikae is not considered, as there. */
static int shanten_after_call(const St *st, int s, int a, int b, int before) {
    Hand h = st->hand[s];
    hand_move(&h, a, -1);
    hand_move(&h, b, -1);
    int best = 99;
    for (int k = 0; k < 34; k++) {
        if (!h.c[k]) continue;
        hand_move(&h, k, -1);
        int v = hand_riichi(&h);
        hand_move(&h, k, +1);
        if (v == FALLBACK) {
            bad_lookup = 1;
            return 99;
        }
        if (v < best) best = v;
    }
    return best == 99 ? before : best;
}

/* The lowest tile code of kind k in the seat's hand (the plain copy before a red five): the
 * first of the engine's sorted call options with these kinds. */
static int first_code(const St *st, int s, int k) {
    if (st->c37[s][k]) return k;
    return RED_OF_KIND[k];
}

typedef struct {
    int chi, a, b; /* consumed tile codes */
    int kan, c;    /* an open kan (daiminkan): its third consumed tile */
} Call;

/* One call option, in the engine's order: 1 when the shanten after it beats the best so far
 * (at first the shanten now, looked up when the first option is met). */
static int better_call(const St *st, int s, int a, int b, int *before, int *best_sh) {
    if (*before == -99) {
        *before = *best_sh = hand_riichi(&st->hand[s]);
        if (*before == FALLBACK) bad_lookup = 1;
    }
    int sh = shanten_after_call(st, s, a, b, *before);
    if (sh >= *best_sh) return 0;
    *best_sh = sh;
    return 1;
}

/* What a fast policy answers in a claim window it cannot win in: EfficiencyAgent._claim over
 * the options in the engine's order (pons first, then chi runs with the called tile low,
 * middle, high), the first of least shanten after the call if it beats the shanten now and a
 * yaku stays in reach.  Returns 1 with *out filled, 0 to pass. */
static int claim_choice(St *st, const RRules *r, int s, int d, int tile, Call *out) {
    int k = kind_of_code(tile), n = st->n;
    int before = -99, best_sh = 0, found = 0;
    if (st->c34[s][k] >= 2 && has_discard_after(st, s, k, k, kuikae_ban(r, k, k, k, 0)) &&
        keeps_a_yaku(st, s, k, 1) && better_call(st, s, k, k, &before, &best_sh)) {
        found = 1;
        int a = first_code(st, s, k);
        /* a second copy: the plain one again when two are held, else the red five */
        int b = (a == k && st->c37[s][k] >= 2) ? k : RED_OF_KIND[k];
        *out = (Call){0, a, b};
    }
    if (n == 4 && s == (d + 1) % n && k < 27) {
        static const int DA[3] = {-2, -1, 1}, DB[3] = {-1, 1, 2};
        int num = k % 9;
        for (int i = 0; i < 3; i++) {
            if (num + DA[i] < 0 || num + DB[i] > 8) continue;
            int a = k + DA[i], b = k + DB[i];
            if (!st->c34[s][a] || !st->c34[s][b]) continue;
            if (!has_discard_after(st, s, a, b, kuikae_ban(r, k, a, b, 1))) continue;
            if (!keeps_a_yaku(st, s, k, 0)) continue;
            if (better_call(st, s, a, b, &before, &best_sh)) {
                found = 1;
                *out = (Call){1, first_code(st, s, a), first_code(st, s, b)};
            }
        }
    }
    return found;
}

/* ------------------------------------------------------------------------- kans (kan policies) */

static inline int may_kan(const St *st) {
    return remaining(st) > 0 && st->n_kans < 4 && st->repl_left > 0;
}

/* RiichiRound._rule_before_draw's suukaikan: four kans, not all by one player. */
static int four_kans(const St *st, const RRules *r) {
    if (!r->four_kan_abort || st->n_kans != 4) return 0;
    for (int i = 1; i < 4; i++)
        if (st->kans_by[i] != st->kans_by[0]) return 1;
    return 0;
}

static int other_riichi(const St *st, int s) {
    for (int x = 0; x < st->n; x++)
        if (x != s && st->riichi[x]) return 1;
    return 0;
}

static void flip_dora(St *st) {
    if (st->n_dora >= 5) return;
    st->visible[kind_of_code(st->dora[st->n_dora])]++;
    st->n_dora++;
}

/* RiichiRound._rule_on_kan: every ippatsu ends; an earlier open kan's dora turns; this kan's
 * turns now (closed, or where the preset turns open ones at once) or at the next discard. */
static void on_kan(St *st, const RRules *r, int s, int open) {
    st->kans_by[st->n_kans++] = s;
    for (int x = 0; x < st->n; x++) st->ippatsu[x] = 0;
    flip_pending_dora(st);
    if (!open || !r->open_kan_dora_after)
        flip_dora(st);
    else
        st->pending_dora++;
}

/* RoundWall.draw_rinshan and TableRound._draw(replacement=True): the live wall loses its last
 * tile; the replacement is the dead wall's next one, or past those the tile just cut off. */
static void draw_rinshan(St *st, int s) {
    if (st->repl_left <= 0 || st->end <= st->next) { /* may_kan rules this out */
        bad_lookup = 1;
        return;
    }
    st->end--;
    int t = st->rinshan_next < st->n_rinshan ? st->rinshan[st->rinshan_next++] : st->live[st->end];
    st->repl_left--;
    st->turn = s;
    st->drawn = t;
    st->after_kan = 1;
    add_tile(st, s, t);
    st->phase = PH_ACT;
}

/* Live effective tiles of a 3k+1-tile hand, each kind counted as ``left`` says
 * (tenpai.hand.efficiency.ukeire's total); *sh receives its shanten. */
static int hand_total(const Hand *h, const int *left, int *sh) {
    int row[34], total = 0;
    *sh = hand_riichi(h);
    if (*sh == FALLBACK || hand_draw_row(h, row) == FALLBACK) {
        bad_lookup = 1;
        *sh = 99;
        return 0;
    }
    for (int j = 0; j < 34; j++)
        if (row[j] < *sh) total += left[j];
    return total;
}

/* The kan rule of tenpai.search.policies: the hand without ``removed`` copies of k no worse
 * than (shanten bs, effective tiles bt), the best without the kan.  ``left`` counts every
 * kind as 4 - held now - visible, the kan's own tiles seen. */
static int kan_worth(const St *st, int s, int k, int removed, const int *left, int bs, int bt) {
    Hand h = st->hand[s];
    for (int i = 0; i < removed; i++) hand_move(&h, k, -1);
    int sa, ta = hand_total(&h, left, &sa);
    return sa < bs || (sa == bs && ta >= bt);
}

/* RiichiRound._rule_ankan_allowed: in riichi only the drawn kind, and only when the waits stay
 * as they were (and there are some). */
static int ankan_allowed(St *st, int s, int k) {
    if (!st->riichi[s]) return 1;
    if (st->drawn < 0 || kind_of_code(st->drawn) != k) return 0;
    Hand h = st->hand[s];
    hand_move(&h, k, -1);
    long long before = waits_mask(&h);
    for (int i = 0; i < 3; i++) hand_move(&h, k, -1);
    long long after = waits_mask(&h);
    if (before < 0 || after < 0) {
        bad_lookup = 1;
        return 0;
    }
    return before == after && after != 0;
}

static int kokushi_ready(const St *st, int s) {
    if (st->n_melds[s]) return 0;
    int kinds = 0;
    for (int k = 0; k < 34; k++) kinds += TERM_HONOR[k] && st->c34[s][k];
    return kinds >= 12;
}

/* RiichiRound._mark_missed for every seat but ``except``: a tile of kind k one waits on went
 * by unclaimed, furiten until one's next discard (for good in riichi).  ``kokushi_only``: the
 * tile of a closed kan, which only a ready kokushi could have robbed.  Shared by the rollouts
 * and the per-step table (_table.c). */
static void mark_missed(St *st, int except, int k, int kokushi_only) {
    for (int s = 0; s < st->n; s++) {
        if (s == except || (kokushi_only && !kokushi_ready(st, s)) || !(waits_of(st, s) >> k & 1))
            continue;
        if (st->riichi[s])
            st->furiten_riichi[s] = 1;
        else
            st->furiten_temp[s] = 1;
    }
}

/* What discard_passed() found: nothing more, the discarder's riichi stands (its deposit
 * paid), or that riichi was the fourth (an abortive draw where the preset has them). */
enum { PASSED, PASSED_RIICHI, PASSED_FOUR_RIICHI };

/* RiichiRound._rule_discard_passed: nobody won on seat d's discard of kind k, so it is furiten
 * for those waiting on it, and a riichi declared with it stands (the deposit, ippatsu), before
 * any call on the discard.  Shared by the rollouts and the per-step table. */
static int discard_passed(St *st, const RRules *r, int d, int k) {
    mark_missed(st, d, k, 0);
    if (st->reach_pending != d) return PASSED;
    st->reach_pending = -1;
    st->scores[d] -= r->riichi_deposit;
    st->kyotaku++;
    st->ippatsu[d] = 1;
    if (r->abortive_draws && st->n == 4 && st->riichi[0] && st->riichi[1] && st->riichi[2] &&
        st->riichi[3])
        return PASSED_FOUR_RIICHI;
    return PASSED_RIICHI;
}

/* RiichiRound._kita_actions: seat s may set a North aside now (after a draw: a North held, a
 * live tile and a replacement draw left; in riichi only the North just drawn). */
static int may_kita(const St *st, const RRules *r, int s) {
    return r->nukidora && st->c34[s][NORTH] && remaining(st) > 0 && st->repl_left > 0 &&
           (!st->riichi[s] || (st->drawn >= 0 && kind_of_code(st->drawn) == NORTH));
}

/* What a kan policy sets down after a draw, if anything: the first of the engine's options
 * (closed kans by kind, added kans in meld order, then a North) that the kan rule takes, with
 * the best legal discard (in riichi, the drawn tile) as what it is measured against. */
static int kan_choice(St *st, const RRules *r, int s, int *kind) {
    int type[8], kinds[8], nc = 0;
    if (may_kan(st)) {
        for (int k = 0; k < 34; k++)
            if (st->c34[s][k] == 4 && ankan_allowed(st, s, k)) {
                type[nc] = KAN_ANKAN;
                kinds[nc++] = k;
            }
        if (!st->riichi[s])
            for (int i = 0; i < st->n_melds[s]; i++) {
                int mk = kind_of_code(st->melds[s][i].tiles[0]);
                if (st->melds[s][i].type == MT_PON && st->c34[s][mk]) {
                    type[nc] = KAN_KAKAN;
                    kinds[nc++] = mk;
                }
            }
    }
    if (may_kita(st, r, s)) {
        type[nc] = KAN_KITA;
        kinds[nc++] = NORTH;
    }
    if (!nc) return KAN_NONE;
    Options o;
    options_init(st, s, &o);
    int bs = 99, bt = -1;
    for (int k = 0; k < 34; k++) {
        if (st->riichi[s] ? k != kind_of_code(st->drawn) : !st->c34[s][k]) continue;
        if (o.after[k] > bs) continue;
        int t = option_total(st, s, &o, k);
        if (o.after[k] < bs || t > bt) {
            bs = o.after[k];
            bt = t;
        }
    }
    for (int i = 0; i < nc; i++)
        if (kan_worth(st, s, kinds[i], type[i] == KAN_ANKAN ? 4 : 1, o.left, bs, bt)) {
            *kind = kinds[i];
            return type[i];
        }
    return KAN_NONE;
}

/* An open kan on seat d's discard of kind k by seat s holding three: what a pon of it needs
 * (keeps_a_yaku) and the kan rule against the 13 tiles held. */
static int daiminkan_worth(St *st, int s, int k) {
    if (!keeps_a_yaku(st, s, k, 1)) return 0;
    int left[34], bs;
    for (int j = 0; j < 34; j++) left[j] = 4 - st->c34[s][j] - st->visible[j];
    int bt = hand_total(&st->hand[s], left, &bs);
    return kan_worth(st, s, k, 3, left, bs, bt);
}

/* A closed kan, an added kan or a North set aside by seat s (type KAN_*, kind k), up to its
 * rob window: the tiles leave the hand (a closed kan becomes a meld and turns its dora at once,
 * an added kan's tile joins its pon, a North is set aside); returns the tile the others may
 * rob, -1 for a forged state.  Shared by the rollouts (self_kan) and the per-step table. */
static int kan_set_down(St *st, const RRules *r, int s, int type, int k) {
    int tile;
    if (type == KAN_ANKAN) {
        if (st->n_melds[s] >= 4) { /* only a forged state gets here */
            bad_lookup = 1;
            return -1;
        }
        CMeld *m = &st->melds[s][st->n_melds[s]++];
        m->type = MT_ANKAN;
        m->n = 0;
        int codes[2] = {k, RED_OF_KIND[k]};
        for (int c = 0; c < 2; c++)
            while ((c == 0 || codes[c]) && st->c37[s][codes[c]] && m->n < 4) {
                remove_tile(st, s, codes[c]);
                m->tiles[m->n++] = codes[c];
            }
        if (m->n != 4) {
            bad_lookup = 1;
            return -1;
        }
        st->visible[k] += 4;
        tile = m->tiles[0];
        st->any_call = 1;
        on_kan(st, r, s, 0);
    } else if (type == KAN_KAKAN) {
        tile = st->c37[s][k] ? k : RED_OF_KIND[k];
        CMeld *m = NULL;
        for (int i = 0; i < st->n_melds[s]; i++)
            if (st->melds[s][i].type == MT_PON && kind_of_code(st->melds[s][i].tiles[0]) == k)
                m = &st->melds[s][i];
        if (m == NULL || !st->c37[s][tile]) {
            bad_lookup = 1;
            return -1;
        }
        remove_tile(st, s, tile);
        m->type = MT_KAKAN;
        m->tiles[m->n++] = tile;
        st->visible[k]++;
    } else {
        if (!st->c37[s][NORTH]) {
            bad_lookup = 1;
            return -1;
        }
        tile = NORTH;
        remove_tile(st, s, NORTH);
        st->nuki[s]++;
        st->visible[NORTH]++;
    }
    st->drawn = -1;
    return tile;
}

/* RiichiRound._rule_kan_stands: nobody robbed seat s's kan or North (type KAN_*), so its tile
 * is furiten for those who waited on it (a closed kan's only for a ready kokushi); a North
 * that stands ends every ippatsu and the first go-around and turns a pending dora, an added
 * kan is now declared (on_kan).  The replacement draw follows.  Shared by the rollouts and
 * the per-step table. */
static void kan_stood(St *st, const RRules *r, int s, int type, int tile) {
    mark_missed(st, s, kind_of_code(tile), type == KAN_ANKAN);
    if (type == KAN_KITA) {
        for (int x = 0; x < st->n; x++) st->ippatsu[x] = 0;
        st->any_call = 1;
        flip_pending_dora(st);
    } else if (type == KAN_KAKAN) {
        st->any_call = 1;
        on_kan(st, r, s, 1);
    }
}

/* A closed kan, an added kan or a North set aside by the seat to move, as RiichiRound plays
 * it: the rob window (an added kan by any ron with chankan, a closed kan only by a ready
 * kokushi where the preset allows, a North by an ordinary ron), the missed tile's furiten,
 * then the kan stands (ippatsu gone, kan dora) and the replacement draw.  Returns 1 when a
 * rob ended the hand, 0 to play on, -1 on a scorer failure. */
static int self_kan(St *st, const RRules *r, int s, int type, int k, int passive,
                    Outcome *out) {
    int closed = type == KAN_ANKAN, n = st->n;
    int tile = kan_set_down(st, r, s, type, k);
    if (tile < 0) return -1;
    int tk = kind_of_code(tile), wins[3], nw = 0;
    st->chankan = type != KAN_KITA; /* RiichiRound._rule_rob_candidates' robbing flag */
    for (int i = 1; i < n; i++) {
        int x = (s + i) % n;
        if (passive >> x & 1) continue; /* a passive seat never robs */
        if (closed && !(r->kokushi_robs_ankan && kokushi_ready(st, x))) continue;
        if (!(waits_of(st, x) >> tk & 1) || furiten(st, x)) continue;
        long long dd[4];
        int got = score_win(st, r, x, s, tile, 0, st->honba, st->kyotaku, dd);
        if (got < 0) return -1;
        if (got) wins[nw++] = x;
    }
    st->chankan = 0;
    if (nw) {
        if (nw == 3 && r->triple_ron_abort) {
            end_result(out, K_ABORTIVE, A_TRIPLE_RON);
            return 1;
        }
        if (nw > 1 && !r->double_ron) nw = 1;
        /* the chankan yaku only for an added kan (RiichiRound._rule_wins) */
        st->chankan = type == KAN_KAKAN;
        int got = settle_wins(st, r, wins, nw, s, tile, 0, out);
        st->chankan = 0;
        return got < 0 ? -1 : 1;
    }
    kan_stood(st, r, s, type, tile);
    draw_rinshan(st, s);
    return 0;
}

/* RiichiRound's call: the meld on the table, the discard marked called, every ippatsu gone,
 * pao when a pon completes the dragons or the winds, and the caller owes a discard (after an
 * open kan: the kan dora as on_kan says and the replacement draw instead). */
static void apply_call(St *st, const RRules *r, int s, int d, int tile, const Call *c) {
    if (st->n_melds[s] >= 4) { /* only a forged state gets here */
        bad_lookup = 1;
        return;
    }
    int k = kind_of_code(tile);
    remove_tile(st, s, c->a);
    remove_tile(st, s, c->b);
    st->visible[kind_of_code(c->a)]++;
    st->visible[kind_of_code(c->b)]++;
    if (c->kan) {
        remove_tile(st, s, c->c);
        st->visible[kind_of_code(c->c)]++;
    }
    st->river_called[d][st->n_river[d] - 1] = 1;
    CMeld *m = &st->melds[s][st->n_melds[s]++];
    m->type = c->kan ? MT_DAIMINKAN : c->chi ? MT_CHI : MT_PON;
    m->n = c->kan ? 4 : 3;
    m->tiles[0] = c->a;
    m->tiles[1] = c->b;
    m->tiles[2] = c->kan ? c->c : tile;
    if (c->kan) m->tiles[3] = tile;
    st->open[s] = 1;
    st->any_call = 1;
    for (int x = 0; x < st->n; x++) st->ippatsu[x] = 0;
    if (r->pao_flow && !c->chi && k >= 27) {
        int have = 0; /* bit per honour kind held as a pon or kan */
        for (int i = 0; i < st->n_melds[s]; i++)
            if (st->melds[s][i].type != MT_CHI) {
                int mk = kind_of_code(st->melds[s][i].tiles[0]);
                if (mk >= 27) have |= 1 << (mk - 27);
            }
        if (k >= 31 ? (have & 0x70) == 0x70 : (have & 0x0F) == 0x0F) st->pao[s] = d;
    }
    if (c->kan) {
        on_kan(st, r, s, 1);
        draw_rinshan(st, s);
        return;
    }
    st->turn = s;
    st->drawn = -1;
    st->banned = kuikae_ban(r, k, kind_of_code(c->a), kind_of_code(c->b), c->chi);
    st->phase = PH_CALLED;
}

/* The claim window's calls after nobody won on the discard: each fast seat's answer in seat
 * order; a pon beats a chi (only one seat can pon a kind, only the next seat can chi).
 * Returns 1 when a call was made. */
static int calls(St *st, const RRules *r, const int *policies, int d, int tile) {
    if (remaining(st) <= 0) return 0;
    int n = st->n, any_riichi = 0;
    Call pon = {0, 0, 0, 0, 0}, chi = {0, 0, 0, 0, 0};
    int pon_seat = -1, chi_seat = -1, k = kind_of_code(tile);
    for (int s = 0; s < n; s++) {
        if (s == d || st->riichi[s]) continue;
        int p = policies[s];
        if (!calls_policy(p)) continue;
        if (fold_policy(p)) {
            any_riichi = 0;
            for (int x = 0; x < n; x++)
                if (x != s && st->riichi[x]) any_riichi = 1;
            if (any_riichi) continue; /* fast-fold passes every call while someone is in riichi */
        }
        if (kan_policy(p) && st->c34[s][k] == 3 && may_kan(st) && daiminkan_worth(st, s, k)) {
            /* an open kan, taken before a pon or chi (only one seat can hold three) */
            int codes[3], nc = 0;
            for (int j = 0; j < st->c37[s][k] && nc < 3; j++) codes[nc++] = k;
            if (RED_OF_KIND[k] && st->c37[s][RED_OF_KIND[k]] && nc < 3)
                codes[nc++] = RED_OF_KIND[k];
            pon = (Call){0, codes[0], codes[1], 1, codes[2]};
            pon_seat = s;
            continue;
        }
        Call c;
        if (!claim_choice(st, r, s, d, tile, &c)) continue;
        if (c.chi) {
            chi = c;
            chi_seat = s;
        } else if (pon_seat < 0) {
            pon = c;
            pon.kan = 0;
            pon_seat = s;
        }
    }
    if (pon_seat >= 0)
        apply_call(st, r, pon_seat, d, tile, &pon);
    else if (chi_seat >= 0)
        apply_call(st, r, chi_seat, d, tile, &chi);
    else
        return 0;
    return 1;
}

/* Play the hand to its end.  0 done, -1 internal failure (reported as RuntimeError). */
static int play(St *st, const RRules *r, const int *policies, int first, Outcome *out) {
    memset(out, 0, sizeof *out);
    int n = st->n, passive = 0; /* bit per seat that never wins (P_PASSIVE) */
    for (int s = 0; s < n; s++)
        if (policies[s] == P_PASSIVE) passive |= 1 << s;
    for (int steps = 0; steps < 1000; steps++) {
        if (bad_lookup) return -1;
        if (st->phase == PH_CALLED) {
            /* the discard owed after a call: no draw, no win, no riichi; kuikae applies */
            int s = st->turn, reach = 0;
            int code = own_discard(st, r, s, policies[s], &reach);
            if (code < 0) return -1;
            discard(st, s, code, 0);
            continue;
        }
        if (st->phase == PH_ACT && first >= 0) {
            /* the searched answer: this discard, whatever the policy would do */
            discard(st, st->turn, first, 0);
            first = -1;
            continue;
        }
        if (st->phase == PH_ACT) {
            int s = st->turn;
            if (st->drawn < 0) return -1;
            if (!(passive >> s & 1) && hand_riichi(&st->hand[s]) == -1) {
                long long d[4];
                int got = score_win(st, r, s, s, st->drawn, 1, st->honba, st->kyotaku, d);
                if (got < 0) return -1;
                if (got == 1) {
                    int seats[1] = {s};
                    return settle_wins(st, r, seats, 1, s, st->drawn, 1, out);
                }
            }
            if (kan_policy(policies[s]) &&
                !(policies[s] == P_FAST_KAN_FOLD && other_riichi(st, s))) {
                int k = -1, type = kan_choice(st, r, s, &k);
                if (type != KAN_NONE) {
                    int got = self_kan(st, r, s, type, k, passive, out);
                    if (got < 0) return -1;
                    if (got) return 0;
                    continue;
                }
            }
            int reach = 0;
            int code = own_discard(st, r, s, policies[s], &reach);
            if (code < 0) return -1;
            discard(st, s, code, reach);
            continue;
        }
        /* a discard on the table: rons, then the draw that follows */
        int d = st->turn, tile = st->river[d][st->n_river[d] - 1], k = kind_of_code(tile);
        int wins[3], nw = 0;
        for (int i = 1; i < n; i++) {
            int s = (d + i) % n;
            if ((passive >> s & 1) || !(waits_of(st, s) >> k & 1) || furiten(st, s)) continue;
            long long dd[4];
            int got = score_win(st, r, s, d, tile, 0, st->honba, st->kyotaku, dd);
            if (got < 0) return -1;
            if (got) wins[nw++] = s;
        }
        if (nw) {
            if (nw == 3 && r->triple_ron_abort) {
                end_result(out, K_ABORTIVE, A_TRIPLE_RON);
                return 0;
            }
            if (nw > 1 && !r->double_ron) nw = 1;
            return settle_wins(st, r, wins, nw, d, tile, 0, out);
        }
        if (discard_passed(st, r, d, k) == PASSED_FOUR_RIICHI) {
            end_result(out, K_ABORTIVE, A_FOUR_RIICHI);
            return 0;
        }
        if (calls(st, r, policies, d, tile)) continue;
        if (r->abortive_draws && four_winds(st)) {
            end_result(out, K_ABORTIVE, A_FOUR_WINDS);
            return 0;
        }
        if (four_kans(st, r)) {
            end_result(out, K_ABORTIVE, A_FOUR_KANS);
            return 0;
        }
        if (remaining(st) == 0) {
            exhaustive(st, r, out);
            return 0;
        }
        draw(st, (d + 1) % n);
    }
    return -1;
}

/* ------------------------------------------------------------------------- reading the state */

static PyObject *state_error;

static int read_int(PyObject *o, long lo, long hi, const char *what, int *out) {
    if (!PyLong_Check(o)) {
        PyErr_Format(state_error, "rollout state: %s is not an int", what);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred()) || v < lo || v > hi) {
        PyErr_Clear();
        PyErr_Format(state_error, "rollout state: %s must be in %ld..%ld", what, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* A sequence of ints in lo..hi, at most max long; returns its length or -1. */
static int read_ints(PyObject *seq, long lo, long hi, int max, const char *what, int *out) {
    PyObject *fast = PySequence_Fast(seq, "rollout state: expected a sequence");
    if (fast == NULL) {
        PyErr_Clear();
        PyErr_Format(state_error, "rollout state: %s is not a sequence", what);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(state_error, "rollout state: %s holds %zd items, at most %d", what, n, max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (read_int(PySequence_Fast_GET_ITEM(fast, i), lo, hi, what, &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return (int)n;
}

static int read_seat_ints(PyObject *seq, int n, long lo, long hi, const char *what, int *out) {
    int got = read_ints(seq, lo, hi, 4, what, out);
    if (got < 0) return -1;
    if (got != n) {
        PyErr_Format(state_error, "rollout state: %s needs one entry per seat (%d), got %d", what,
                     n, got);
        return -1;
    }
    return 0;
}

/* Fields of the state tuple, in order (tenpai.rules.riichi.rollout.export_state builds it). */
enum {
    S_PLAYERS, S_BAKAZE, S_OYA, S_HONBA, S_KYOTAKU, S_SCORES, S_LIVE, S_DORA, S_URA, S_N_DORA,
    S_PENDING_DORA, S_HANDS, S_DRAWN, S_TURN, S_AFTER_KAN, S_PHASE, S_MELDS, S_NUKI, S_RIVERS,
    S_RIVER_CALLED, S_DISCARDS_MADE, S_ANY_CALL, S_RIICHI, S_DOUBLE_RIICHI, S_IPPATSU,
    S_FURITEN_TEMP, S_FURITEN_RIICHI, S_PAO, S_REACH_PENDING, S_KANS_BY, S_RINSHAN,
    S_REPLACEMENTS, S_BANNED, N_STATE
};

static int read_state(PyObject *tup, St *st, const RRules *r) {
    if (!PyTuple_Check(tup) || PyTuple_GET_SIZE(tup) != N_STATE) {
        PyErr_Format(state_error, "rollout state must be a tuple of %d fields", N_STATE);
        return -1;
    }
    memset(st, 0, sizeof *st);
#define G(i) PyTuple_GET_ITEM(tup, i)
    int n;
    if (read_int(G(S_PLAYERS), 3, 4, "players", &n) < 0) return -1;
    if (n != r->players) {
        PyErr_Format(state_error, "rollout state: %d players but the rules are for %d", n,
                     r->players);
        return -1;
    }
    st->n = n;
    if (read_int(G(S_BAKAZE), 0, 3, "bakaze", &st->bakaze) < 0) return -1;
    if (read_int(G(S_OYA), 0, n - 1, "oya", &st->oya) < 0) return -1;
    if (read_int(G(S_HONBA), 0, 1000, "honba", &st->honba) < 0) return -1;
    if (read_int(G(S_KYOTAKU), 0, 1000, "kyotaku", &st->kyotaku) < 0) return -1;
    if (read_seat_ints(G(S_SCORES), n, -10000000, 10000000, "scores", st->scores) < 0) return -1;
    int got = read_ints(G(S_LIVE), 0, 36, MAX_LIVE, "live wall", st->live);
    if (got < 0) return -1;
    st->next = 0;
    st->end = got;
    if (read_ints(G(S_DORA), 0, 36, 5, "dora slots", st->dora) != 5 ||
        read_ints(G(S_URA), 0, 36, 5, "ura slots", st->ura) != 5) {
        if (!PyErr_Occurred())
            PyErr_SetString(state_error, "rollout state: dora and ura need five slots each");
        return -1;
    }
    if (read_int(G(S_N_DORA), 1, 5, "dora shown", &st->n_dora) < 0) return -1;
    if (read_int(G(S_PENDING_DORA), 0, 4, "pending dora", &st->pending_dora) < 0) return -1;
    if (st->n_dora + st->pending_dora > 5) {
        PyErr_SetString(state_error, "rollout state: more than five dora indicators");
        return -1;
    }
    if (read_int(G(S_TURN), 0, n - 1, "turn", &st->turn) < 0) return -1;
    if (read_int(G(S_PHASE), 0, 2, "phase", &st->phase) < 0) return -1;
    if (read_int(G(S_DRAWN), -1, 36, "drawn", &st->drawn) < 0) return -1;
    if (read_int(G(S_AFTER_KAN), 0, 1, "after_kan", &st->after_kan) < 0) return -1;
    if (read_int(G(S_ANY_CALL), 0, 1, "any_call", &st->any_call) < 0) return -1;
    if (read_int(G(S_REACH_PENDING), -1, n - 1, "reach_pending", &st->reach_pending) < 0)
        return -1;
    st->n_kans = read_ints(G(S_KANS_BY), 0, n - 1, 4, "kans_by", st->kans_by);
    if (st->n_kans < 0) return -1;
    st->n_rinshan = read_ints(G(S_RINSHAN), 0, 36, 4, "replacement tiles", st->rinshan);
    if (st->n_rinshan < 0) return -1;
    if (read_int(G(S_REPLACEMENTS), 0, 8, "replacements left", &st->repl_left) < 0) return -1;
    {
        int banned[34];
        int nb = read_ints(G(S_BANNED), 0, 33, 34, "banned discards", banned);
        if (nb < 0) return -1;
        for (int i = 0; i < nb; i++) st->banned |= 1ULL << banned[i];
        if (nb && st->phase != PH_CALLED) {
            PyErr_SetString(state_error, "rollout state: banned discards belong to a call");
            return -1;
        }
    }
    if (read_seat_ints(G(S_NUKI), n, 0, 4, "nukidora", st->nuki) < 0 ||
        read_seat_ints(G(S_DISCARDS_MADE), n, 0, MAX_RIVER, "discards_made",
                       st->discards_made) < 0 ||
        read_seat_ints(G(S_RIICHI), n, 0, 1, "riichi", st->riichi) < 0 ||
        read_seat_ints(G(S_DOUBLE_RIICHI), n, 0, 1, "double_riichi", st->double_riichi) < 0 ||
        read_seat_ints(G(S_IPPATSU), n, 0, 1, "ippatsu", st->ippatsu) < 0 ||
        read_seat_ints(G(S_FURITEN_TEMP), n, 0, 1, "furiten_temp", st->furiten_temp) < 0 ||
        read_seat_ints(G(S_FURITEN_RIICHI), n, 0, 1, "furiten_riichi", st->furiten_riichi) < 0 ||
        read_seat_ints(G(S_PAO), n, -1, n - 1, "pao", st->pao) < 0)
        return -1;
    /* every copy of every kind, for the four-copies check */
    int all[34], reds[3] = {0, 0, 0};
    memset(all, 0, sizeof all);
#define COUNT(code)                                   \
    do {                                              \
        all[kind_of_code(code)]++;                    \
        if ((code) >= 34) reds[(code) - 34]++;        \
    } while (0)
    PyObject *hands = G(S_HANDS), *melds = G(S_MELDS), *rivers = G(S_RIVERS),
             *called = G(S_RIVER_CALLED);
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != n || !PyTuple_Check(melds) ||
        PyTuple_GET_SIZE(melds) != n || !PyTuple_Check(rivers) || PyTuple_GET_SIZE(rivers) != n ||
        !PyTuple_Check(called) || PyTuple_GET_SIZE(called) != n) {
        PyErr_SetString(state_error,
                        "rollout state: hands, melds, rivers and river_called need a tuple per seat");
        return -1;
    }
    for (int s = 0; s < n; s++) {
        int tiles[14];
        int nt = read_ints(PyTuple_GET_ITEM(hands, s), 0, 36, 14, "a hand", tiles);
        if (nt < 0) return -1;
        for (int i = 0; i < nt; i++) {
            add_tile(st, s, tiles[i]);
            COUNT(tiles[i]);
        }
        PyObject *ms = PyTuple_GET_ITEM(melds, s);
        if (!PyTuple_Check(ms) || PyTuple_GET_SIZE(ms) > 4) {
            PyErr_SetString(state_error, "rollout state: a seat's melds must be a tuple of at most 4");
            return -1;
        }
        st->n_melds[s] = (int)PyTuple_GET_SIZE(ms);
        for (int i = 0; i < st->n_melds[s]; i++) {
            PyObject *m = PyTuple_GET_ITEM(ms, i);
            CMeld *cm = &st->melds[s][i];
            if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 2 ||
                read_int(PyTuple_GET_ITEM(m, 0), 0, 4, "a meld's type", &cm->type) < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(state_error, "rollout state: a meld is (type, tiles)");
                return -1;
            }
            cm->n = read_ints(PyTuple_GET_ITEM(m, 1), 0, 36, 4, "a meld's tiles", cm->tiles);
            if (cm->n < 0) return -1;
            int kan = cm->type >= MT_DAIMINKAN;
            if (cm->n != (kan ? 4 : 3)) {
                PyErr_SetString(state_error, "rollout state: a meld has the wrong number of tiles");
                return -1;
            }
            int lo = 99, seen = 0;
            for (int j = 0; j < cm->n; j++) {
                int k = kind_of_code(cm->tiles[j]);
                if (k < lo) lo = k;
                COUNT(cm->tiles[j]);
                st->visible[k]++;
            }
            for (int j = 0; j < cm->n; j++) {
                int dk = kind_of_code(cm->tiles[j]) - lo;
                int bad = cm->type == MT_CHI ? (dk > 2 || (seen >> dk & 1)) : dk != 0;
                if (bad || (cm->type == MT_CHI && (lo >= 27 || lo % 9 > 6))) {
                    PyErr_SetString(state_error, "rollout state: a meld's tiles do not form it");
                    return -1;
                }
                seen |= 1 << dk;
            }
            if (cm->type != MT_ANKAN) st->open[s] = 1;
        }
        int need = 13 - 3 * st->n_melds[s] + (st->phase != PH_CLAIM && s == st->turn);
        if (nt != need) {
            PyErr_Format(state_error, "rollout state: seat %d holds %d tiles, not %d", s, nt, need);
            return -1;
        }
        int rv[MAX_RIVER], cl[MAX_RIVER];
        int nr = read_ints(PyTuple_GET_ITEM(rivers, s), 0, 36, MAX_RIVER, "a river", rv);
        if (nr < 0) return -1;
        int nc = read_ints(PyTuple_GET_ITEM(called, s), 0, 1, MAX_RIVER, "river_called", cl);
        if (nc < 0) return -1;
        if (nc != nr) {
            PyErr_SetString(state_error, "rollout state: river_called must match the river");
            return -1;
        }
        for (int i = 0; i < nr; i++) {
            st->river[s][i] = rv[i];
            st->river_called[s][i] = (unsigned char)cl[i];
            st->river_kinds[s] |= 1ULL << kind_of_code(rv[i]);
            if (!cl[i]) {
                COUNT(rv[i]);
                st->visible[kind_of_code(rv[i])]++;
            }
        }
        st->n_river[s] = nr;
        all[30] += st->nuki[s];
        st->visible[30] += st->nuki[s];
    }
    for (int i = 0; i < st->end; i++) COUNT(st->live[i]);
    for (int i = 0; i < st->n_rinshan; i++) COUNT(st->rinshan[i]);
    for (int i = 0; i < 5; i++) {
        COUNT(st->dora[i]);
        COUNT(st->ura[i]);
    }
    for (int i = 0; i < st->n_dora; i++) st->visible[kind_of_code(st->dora[i])]++;
#undef COUNT
    for (int k = 0; k < 34; k++)
        if (all[k] > 4) {
            PyErr_Format(state_error, "rollout state holds %d copies of kind %d (at most 4)", all[k],
                         k);
            return -1;
        }
    for (int i = 0; i < 3; i++)
        if (reds[i] > 1) {
            PyErr_Format(state_error, "rollout state holds %d copies of red five %d", reds[i],
                         34 + i);
            return -1;
        }
    if (st->phase == PH_ACT) {
        if (st->drawn < 0 || !st->c37[st->turn][st->drawn]) {
            PyErr_SetString(state_error, "rollout state: the drawn tile is not in the turn's hand");
            return -1;
        }
    } else if (st->phase == PH_CALLED) {
        int t = st->turn, allowed = 0;
        for (int k = 0; k < 34; k++)
            if (st->c34[t][k] && !(st->banned >> k & 1)) allowed = 1;
        if (st->drawn != -1 || !st->open[t] || !allowed) {
            PyErr_SetString(state_error, "rollout state: a discard owed after a call needs no "
                                         "drawn tile, an open meld and a tile it may discard");
            return -1;
        }
    } else if (st->n_river[st->turn] == 0) {
        PyErr_SetString(state_error, "rollout state: a claim phase needs a discard in the river");
        return -1;
    }
    if (st->reach_pending >= 0 && (st->phase != PH_CLAIM || st->reach_pending != st->turn)) {
        PyErr_SetString(state_error, "rollout state: a pending riichi belongs to the discard");
        return -1;
    }
#undef G
    return 0;
}

/* rules: (scoring flags as read by _score's Rules, then the flow flags), see rollout.py. */
static int read_rules(PyObject *tup, RRules *r) {
    int v[29];
    int got = read_ints(tup, -1000000, 1000000, 29, "rules", v);
    if (got < 0) return -1;
    if (got != 29) {
        PyErr_SetString(state_error, "rollout rules must be a tuple of 29 ints");
        return -1;
    }
    memset(r, 0, sizeof *r);
    if (v[0] != 3 && v[0] != 4) {
        PyErr_SetString(state_error, "rollout rules: players must be 3 or 4");
        return -1;
    }
    r->sc.obj = NULL;
    r->sc.players = r->players = v[0];
    r->sc.red_fives = v[1] != 0;
    r->sc.open_tanyao = v[2];
    r->sc.kazoe = v[3];
    r->sc.kiriage = v[4];
    r->sc.dbl_variants = v[5];
    r->sc.stacking = v[6];
    r->sc.dwpf = v[7];
    r->sc.renhou = v[8];
    r->sc.pao_whole = v[9];
    r->sc.honba_points = v[10];
    r->sc.riichi_deposit = v[11];
    /* the pao mask in two halves (31 bits each) */
    r->sc.pao_mask = ((unsigned long long)(unsigned)v[12]) |
                     ((unsigned long long)(unsigned)v[13] << 31);
    r->abortive_draws = v[14];
    r->double_ron = v[15];
    r->triple_ron_abort = v[16];
    r->nagashi = v[17];
    r->riichi_min_points = v[18];
    r->riichi_min_wall = v[19];
    r->riichi_deposit = v[11];
    r->noten_penalty = v[20];
    r->karaten_melds = v[21];
    r->kuikae = v[22];
    r->pao_flow = v[23] != 0;
    if (v[22] < 0 || v[22] > 2) {
        PyErr_SetString(state_error, "rollout rules: kuikae must be 0, 1 or 2");
        return -1;
    }
    r->open_kan_dora_after = v[24] != 0;
    r->kokushi_robs_ankan = v[25] != 0;
    r->four_kan_abort = v[26] != 0;
    r->nukidora = v[27] != 0;
    if (r->nukidora && r->players != 3) {
        PyErr_SetString(state_error, "rollout rules: Norths are set aside at three players only");
        return -1;
    }
    if (v[28] != ABI) {
        PyErr_SetString(state_error, "rollout rules were built for another ABI");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------- module functions */

/* run(state, rules, policies, seeds[, first[, indicators[, yaku]]]) -> bytes of len(seeds)
 * rows of ROW int32; ``first`` (a tile code, -1 for none) is the discard the player to move
 * makes first; with ``indicators`` each row has one more column, the dora indicators shown at
 * the end; ``yaku`` the open-hand yaku rule of every seat (YR_*, see yaku_avoid). */
static PyObject *run(PyObject *self, PyObject *args) {
    PyObject *state, *rules, *pol, *seeds;
    int first = -1, indicators = 0, yaku = 0;
    if (!PyArg_ParseTuple(args, "OOOO|ipi", &state, &rules, &pol, &seeds, &first, &indicators,
                          &yaku))
        return NULL;
    const Py_ssize_t width = ROW + (indicators ? 1 : 0);
    if (!tables_ready) {
        PyErr_SetString(PyExc_RuntimeError, "_rollout.configure() has not been called");
        return NULL;
    }
    RRules r;
    if (read_rules(rules, &r) < 0) return NULL;
    St *base = PyMem_Malloc(sizeof(St));
    St *st = PyMem_Malloc(sizeof(St));
    if (base == NULL || st == NULL) {
        PyMem_Free(base);
        PyMem_Free(st);
        return PyErr_NoMemory();
    }
    PyObject *out = NULL, *fast = NULL;
    int policies[4];
    if (read_state(state, base, &r) < 0) goto done;
    if (yaku < 0 || yaku > 2) {
        PyErr_Format(state_error, "rollout: unknown yaku rule code %d", yaku);
        goto done;
    }
    base->yaku_rule = yaku;
    if (read_seat_ints(pol, base->n, 0, N_POLICIES - 1, "policies", policies) < 0) goto done;
    if (first != -1) {
        int t = base->turn;
        if (first < 0 || first > 36 || base->phase != PH_ACT || !base->c37[t][first] ||
            (base->riichi[t] && first != base->drawn)) {
            PyErr_Format(state_error,
                         "rollout: the first discard %d is not a discard the player to move "
                         "may make here", first);
            goto done;
        }
    }
    fast = PySequence_Fast(seeds, "seeds must be a sequence of ints");
    if (fast == NULL) goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    uint64_t *seed_v = PyMem_Malloc(sizeof(uint64_t) * (count ? count : 1));
    if (seed_v == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            PyMem_Free(seed_v);
            goto done;
        }
        seed_v[i] = v;
    }
    out = PyBytes_FromStringAndSize(NULL, count * width * (Py_ssize_t)sizeof(int32_t));
    if (out == NULL) {
        PyMem_Free(seed_v);
        goto done;
    }
    int32_t *rows = (int32_t *)PyBytes_AS_STRING(out);
    int failed = 0;
    /* The GIL stays held: the scorer core's reading buffer and the failure flag are static. */
    for (Py_ssize_t i = 0; i < count && !failed; i++) {
        memcpy(st, base, sizeof(St));
        st->rng = seed_v[i];
        Outcome o;
        bad_lookup = 0;
        if (play(st, &r, policies, first, &o) < 0 || bad_lookup) {
            failed = 1;
            break;
        }
        int32_t *row = rows + i * width;
        if (indicators) row[ROW] = st->n_dora;
        row[0] = o.kind;
        row[1] = o.winners;
        row[2] = o.tenpai;
        row[3] = o.code;
        row[4] = st->kyotaku;
        for (int j = 0; j < 4; j++) {
            row[5 + j] = j < st->n ? st->scores[j] : 0;
            row[9 + j] = j < st->n ? o.deltas[j] : 0;
        }
    }
    PyMem_Free(seed_v);
    if (failed) {
        Py_CLEAR(out);
        PyErr_SetString(PyExc_RuntimeError,
                        "_rollout: a hand could not be played (an internal inconsistency)");
    }
done:
    Py_XDECREF(fast);
    PyMem_Free(base);
    PyMem_Free(st);
    return out;
}

/* decide(state, rules, policy) -> (action, tile): the policy's answer at a draw (or at the
 * discard owed after a call), without playing on: action 0 a tsumo win (tile: the drawn one),
 * 1 a discard, 2 riichi with that discard, 3 a closed kan (tile: its lowest code), 4 an added
 * kan (the tile added), 5 a North set aside.  For testing the compiled policies against the Python agents position by position. */
static PyObject *decide(PyObject *self, PyObject *args) {
    PyObject *state, *rules;
    int policy, yaku = 0;
    if (!PyArg_ParseTuple(args, "OOi|i", &state, &rules, &policy, &yaku)) return NULL;
    if (!tables_ready) {
        PyErr_SetString(PyExc_RuntimeError, "_rollout.configure() has not been called");
        return NULL;
    }
    if (policy < 0 || policy >= N_POLICIES) {
        PyErr_Format(state_error, "rollout: unknown policy code %d", policy);
        return NULL;
    }
    RRules r;
    if (read_rules(rules, &r) < 0) return NULL;
    St *st = PyMem_Malloc(sizeof(St));
    if (st == NULL) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (read_state(state, st, &r) < 0) goto done;
    if (yaku < 0 || yaku > 2) {
        PyErr_Format(state_error, "rollout: unknown yaku rule code %d", yaku);
        goto done;
    }
    st->yaku_rule = yaku;
    if (st->phase == PH_CLAIM) {
        PyErr_SetString(state_error, "rollout.decide needs a state at a draw or at the discard "
                                     "owed after a call");
        goto done;
    }
    bad_lookup = 0;
    int s = st->turn, action = 1, code = -1, reach = 0;
    if (st->phase == PH_ACT && policy != P_PASSIVE && hand_riichi(&st->hand[s]) == -1) {
        long long d[4];
        int got = score_win(st, &r, s, s, st->drawn, 1, st->honba, st->kyotaku, d);
        if (got == 1) {
            action = 0;
            code = st->drawn;
        }
    }
    if (action == 1 && st->phase == PH_ACT && kan_policy(policy) &&
        !(policy == P_FAST_KAN_FOLD && other_riichi(st, s))) {
        int k = -1, type = kan_choice(st, &r, s, &k);
        if (type == KAN_ANKAN) {
            action = 3;
            code = st->c37[s][k] ? k : RED_OF_KIND[k];
        } else if (type == KAN_KAKAN) {
            action = 4;
            code = st->c37[s][k] ? k : RED_OF_KIND[k];
        } else if (type == KAN_KITA) {
            action = 5;
            code = NORTH;
        }
    }
    if (action == 1) {
        code = own_discard(st, &r, s, policy, &reach);
        if (reach) action = 2;
    }
    if (code < 0 || bad_lookup) {
        PyErr_SetString(PyExc_RuntimeError, "_rollout: no decision (an internal inconsistency)");
        goto done;
    }
    out = Py_BuildValue("(ii)", action, code);
done:
    PyMem_Free(st);
    return out;
}

/* configure(suit, honor, mp, n_pin, sh, n_honor, final, n_sh, invalid, mp_vectors,
 * sh_vectors): the shanten tables, the same buffers tenpai.hand.accel hands to _accel (taken
 * once; a second call keeps the first tables). */
static PyObject *configure(PyObject *self, PyObject *args) {
    if (tables_ready) Py_RETURN_NONE;
    /* the per-class distance vectors are copied out; the two buffers are not kept */
    Py_buffer va, vb;
    if (shanten_tables_take(args, "_rollout.configure", &va, &vb) < 0) return NULL;
    init_kinds();
    int got = useful_configure(&va, &vb);
    PyBuffer_Release(&va);
    PyBuffer_Release(&vb);
    if (got < 0) {
        shanten_tables_release(NULL, NULL);
        return NULL;
    }
    tables_ready = 1;
    Py_RETURN_NONE;
}

/* set_error(cls): the exception class bad states raise (a ValueError subclass). */
static PyObject *set_error(PyObject *self, PyObject *cls) {
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_ValueError)) {
        PyErr_SetString(PyExc_TypeError, "_rollout.set_error needs a ValueError subclass");
        return NULL;
    }
    Py_INCREF(cls);
    Py_XSETREF(state_error, cls);
    Py_RETURN_NONE;
}

/* yaku_ids() -> the scorer's yaku ids in its enum order (the Python side checks them against
 * ALL_YAKU and builds the pao mask from them). */
static PyObject *yaku_ids_fn(PyObject *self, PyObject *unused) {
    PyObject *out = PyTuple_New(N_YAKU);
    if (out == NULL) return NULL;
    for (int i = 0; i < N_YAKU; i++) {
        PyObject *e = Py_BuildValue("(siiii)", YAKU[i].id, YAKU[i].han_closed, YAKU[i].han_open,
                                    YAKU[i].yakuman, YAKU[i].dbl);
        if (e == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, e);
    }
    return out;
}

#ifndef TENPAI_ROLLOUT_LIBRARY /* _table.c includes this file for its state and rules */
/* _count_mode(mode) -> the previous mode (see count_mode): 1 counts every tied discard, the
 * reference the tests compare the bounded choice with; 2 checks every bound it uses. */
static PyObject *count_mode_fn(PyObject *self, PyObject *arg) {
    long mode = PyLong_AsLong(arg);
    if (mode == -1 && PyErr_Occurred()) return NULL;
    if (mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "_rollout._count_mode: 0, 1 or 2");
        return NULL;
    }
    int previous = count_mode;
    count_mode = (int)mode;
    return PyLong_FromLong(previous);
}

static PyMethodDef methods[] = {
    {"_count_mode", count_mode_fn, METH_O, "Tests: 0 bounded counts, 1 every count, 2 checked."},
    {"run", run, METH_VARARGS, "Play one hand per seed from a state; packed int32 result rows."},
    {"decide", decide, METH_VARARGS, "A policy's answer at a draw: (action, tile code)."},
    {"configure", configure, METH_VARARGS, "Hand over the shanten tables."},
    {"set_error", set_error, METH_O, "The ValueError subclass bad states raise."},
    {"yaku_ids", yaku_ids_fn, METH_NOARGS, "The scorer's yaku table (id, han, open han, yakuman, double)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rollout",
                                    "Compiled Riichi rollouts (see rollout.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__rollout(void) {
    (void)LIMIT_STR;   /* shared with _score.c, which names limits; unused here */
    (void)riichi_code; /* shared with _accel.c */
    (void)hand_init;
    state_error = PyExc_ValueError;
    Py_INCREF(state_error);
    PyObject *mod = PyModule_Create(&module);
    if (mod == NULL) return NULL;
    if (PyModule_AddIntConstant(mod, "ABI", ABI) < 0 || PyModule_AddIntConstant(mod, "ROW", ROW) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
#endif /* TENPAI_ROLLOUT_LIBRARY */
