/*
 * Optional compiled MCR rollouts: one Botzone-preset hand (per-seat walls, no flowers) played to
 * its end inside C from a state the Python engine exports, with the greedy playout policy in
 * every seat -- what search_mcr spends its time on.
 *
 * The Python engine (tenpai.rules.mcr.flow.round.MCRRound on the shared table) and the policy
 * (tenpai.search.mcr.policies.GreedyMCRPolicy) are the specification; this file follows their
 * order of events for the hands that policy produces: a draw from the drawer's own wall, a win
 * whenever the engine would offer one (complete in an MCR form and at least the preset's
 * minimum of fans), otherwise the discard that lowers the MCR shanten most (ties: the drawn
 * tile, then honours and terminals, then 2 and 8, then the highest kind); after a discard the
 * nearest seat in turn order that can win on it wins; otherwise the hand is drawn when the next
 * drawer's wall is empty, else that seat draws.  The policy never calls and never declares a
 * kong, so melds only come from the exported state.  run()'s policy 1 is greedy-fold
 * (tenpai.search.mcr.policies.GreedyFoldMCRPolicy, policy_discard below): greedy that throws
 * its most-seen kind when another seat shows two melds and its own hand is far from ready.  A state may start at a draw (phase act),
 * a discard's claim window (claim), the discard owed after a call (discard) or an added kong's
 * rob window (rob); the first discard of the seat to move may be given (the searched
 * candidate).
 *
 * It holds no second fan count and no second MCR shanten: it includes _fans.c (its module
 * functions left out by TENPAI_FANS_LIBRARY; configure() receives the fan table from the
 * Python classes as _fans does) and hand/_mcr_shanten_core.h (the tables tenpai.hand.tables
 * builds, handed over by configure_shanten()).
 *
 * run(state, first_discard) returns (kind, winner, target, fan total, deltas, fans) or
 * NotImplemented when the fan count does not cover a hand (more readings than its buffers
 * hold) or the shanten tables miss one, which sends the caller to the Python playout.  A state
 * that cannot occur raises the error class given to set_error() with a message naming the
 * field, never a crash.
 */
#define TENPAI_FANS_LIBRARY
#include "_fans.c"
#include "../../hand/_mcr_shanten_core.h"

#define MCR_ROLLOUT_ABI 2
#define MAXWALL 34
#define MAXRIVER 40

enum { PH_ACT, PH_CLAIM, PH_DISCARD, PH_ROB };
enum { MT_CHI, MT_PON, MT_DAIMINKAN, MT_KAKAN, MT_ANKAN };
enum { END_HORA, END_EXHAUSTIVE };

static PyObject *state_error = NULL;
static int tables_ready = 0;

typedef struct {
    int c[4][34];
    int nmelds[4], mkind[4][4], mbase[4][4]; /* mkind: _fans.c's M_* codes */
    int visible[34]; /* unclaimed river tiles and melds other than concealed kongs */
    int wall[4][MAXWALL], wlen[4], wpos[4];
    int dealer, prevalent, min_fan, base;
    int turn, phase, drawn, after_kan, ev_seat, ev_tile;
    int fold; /* the policy: 0 greedy, 1 greedy-fold (GreedyFoldMCRPolicy) */
    /* each seat's MCR shanten while it waits (its hand of 13 - 3 melds tiles), UNKNOWN for the
     * seat to move at the start: a seat at 1 or more cannot complete with one tile, so neither
     * a discard nor its next draw needs the fan count (a tile lowers the shanten by one at
     * most) */
    int sh[4];
} MS;

#define UNKNOWN (-9)

typedef struct {
    int kind, winner, target, fan;
    int deltas[4];
    Hits hits;
} MOut;

/* ------------------------------------------------------------------------- reading a state */

static int fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, ap);
    va_end(ap);
    if (msg) {
        PyErr_SetObject(state_error ? state_error : PyExc_ValueError, msg);
        Py_DECREF(msg);
    }
    return -1;
}

static int as_int(PyObject *o, long lo, long hi, const char *what, long *out) {
    if (!PyLong_Check(o)) return fail("MCR rollout state: %s is not an integer", what);
    long x = PyLong_AsLong(o);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return fail("MCR rollout state: %s is out of range", what);
    }
    if (x < lo || x > hi) return fail("MCR rollout state: %s = %ld is outside %ld-%ld", what, x, lo, hi);
    *out = x;
    return 0;
}

/* A sequence of at most ``maxn`` ints in [lo, hi]; -1 with the state error set otherwise. */
static int int_seq(PyObject *o, int maxn, long lo, long hi, const char *what, int *out, int *n) {
    if (!PyTuple_Check(o) && !PyList_Check(o))
        return fail("MCR rollout state: %s is not a tuple or list", what);
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > maxn) {
        Py_DECREF(seq);
        return fail("MCR rollout state: %s has %zd entries, at most %d fit", what, len, maxn);
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long x = 0;
        if (as_int(PySequence_Fast_GET_ITEM(seq, i), lo, hi, what, &x) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[i] = (int)x;
    }
    *n = (int)len;
    Py_DECREF(seq);
    return 0;
}

/* Four entries (one per seat) of a tuple or list: a new reference to the fast sequence. */
static PyObject *four(PyObject *o, const char *what) {
    if (!PyTuple_Check(o) && !PyList_Check(o)) {
        fail("MCR rollout state: %s is not a tuple or list", what);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(o, "");
    if (seq && PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        Py_DECREF(seq);
        fail("MCR rollout state: %s has %zd seats, not 4", what, n);
        return NULL;
    }
    return seq;
}

#define NFIELDS 15

/* state = (dealer, prevalent wind, minimum fan, base, hands, melds, rivers, river_called,
 *          walls, turn, phase, drawn, after_kan, event seat, event tile); tiles are codes 0-33
 *          (no red fives, no flowers: the botzone preset). */
static int read_state(PyObject *st, MS *s) {
    memset(s, 0, sizeof *s);
    if (!PyTuple_Check(st) || PyTuple_GET_SIZE(st) != NFIELDS)
        return fail("MCR rollout state: a tuple of %d fields expected", NFIELDS);
    long x = 0;
    if (as_int(PyTuple_GET_ITEM(st, 0), 0, 3, "dealer", &x) < 0) return -1;
    s->dealer = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 1), 0, 3, "prevalent wind", &x) < 0) return -1;
    s->prevalent = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 2), 0, 1000, "minimum fan", &x) < 0) return -1;
    s->min_fan = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 3), 0, 1000, "base", &x) < 0) return -1;
    s->base = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 9), 0, 3, "turn", &x) < 0) return -1;
    s->turn = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 10), 0, 3, "phase (0 act, 1 claim, 2 discard, 3 rob)", &x) < 0)
        return -1;
    s->phase = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 11), -1, 33, "drawn", &x) < 0) return -1;
    s->drawn = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 12), 0, 1, "after_kan", &x) < 0) return -1;
    s->after_kan = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 13), -1, 3, "event seat", &x) < 0) return -1;
    s->ev_seat = (int)x;
    if (as_int(PyTuple_GET_ITEM(st, 14), -1, 33, "event tile", &x) < 0) return -1;
    s->ev_tile = (int)x;

    int total[34];
    memset(total, 0, sizeof total);
    int hand_n[4];
    PyObject *hands = four(PyTuple_GET_ITEM(st, 4), "hands");
    if (!hands) return -1;
    for (int p = 0; p < 4; p++) {
        int t[14], n;
        if (int_seq(PySequence_Fast_GET_ITEM(hands, p), 14, 0, 33, "a hand's tile", t, &n) < 0) {
            Py_DECREF(hands);
            return -1;
        }
        hand_n[p] = n;
        for (int i = 0; i < n; i++) {
            s->c[p][t[i]]++;
            total[t[i]]++;
        }
    }
    Py_DECREF(hands);

    PyObject *melds = four(PyTuple_GET_ITEM(st, 5), "melds");
    if (!melds) return -1;
    int has_kong[4] = {0, 0, 0, 0};
    for (int p = 0; p < 4; p++) {
        PyObject *ms = PySequence_Fast_GET_ITEM(melds, p);
        if (!PyTuple_Check(ms) && !PyList_Check(ms)) {
            Py_DECREF(melds);
            return fail("MCR rollout state: seat %d's melds are not a tuple or list", p);
        }
        Py_ssize_t nm = PySequence_Size(ms);
        if (nm > 4) {
            Py_DECREF(melds);
            return fail("MCR rollout state: seat %d has %zd melds, at most 4 fit", p, nm);
        }
        s->nmelds[p] = (int)nm;
        for (Py_ssize_t i = 0; i < nm; i++) {
            PyObject *m = PySequence_GetItem(ms, i);
            if (!m) { Py_DECREF(melds); return -1; }
            if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 2) {
                Py_DECREF(m);
                Py_DECREF(melds);
                return fail("MCR rollout state: seat %d's meld %zd is not (type, tiles)", p, i);
            }
            long type = 0;
            int t[4], n;
            if (as_int(PyTuple_GET_ITEM(m, 0), 0, 4, "a meld's type", &type) < 0 ||
                int_seq(PyTuple_GET_ITEM(m, 1), 4, 0, 33, "a meld's tile", t, &n) < 0) {
                Py_DECREF(m);
                Py_DECREF(melds);
                return -1;
            }
            Py_DECREF(m);
            int kong = type >= MT_DAIMINKAN, want = kong ? 4 : 3;
            if (n != want) {
                Py_DECREF(melds);
                return fail("MCR rollout state: seat %d's meld %zd has %d tiles, not %d", p, i, n, want);
            }
            int lo = 99;
            for (int j = 0; j < n; j++) lo = t[j] < lo ? t[j] : lo;
            if (type == MT_CHI) {
                int got[3] = {0, 0, 0}, ok = lo < 27 && lo % 9 <= 6;
                for (int j = 0; j < n && ok; j++) {
                    int d = t[j] - lo;
                    if (d > 2 || got[d]) ok = 0;
                    else got[d] = 1;
                }
                if (!ok) {
                    Py_DECREF(melds);
                    return fail("MCR rollout state: seat %d's meld %zd is not a chow", p, i);
                }
            } else {
                for (int j = 0; j < n; j++)
                    if (t[j] != lo) {
                        Py_DECREF(melds);
                        return fail("MCR rollout state: seat %d's meld %zd is not one kind", p, i);
                    }
            }
            static const int CODE[5] = {M_CHOW, M_PUNG, M_EXPOSED_KONG, M_PROMOTED_KONG,
                                        M_CONCEALED_KONG};
            s->mkind[p][i] = CODE[type];
            s->mbase[p][i] = lo;
            has_kong[p] |= kong;
            for (int j = 0; j < n; j++) {
                total[t[j]]++;
                if (type != MT_ANKAN) s->visible[t[j]]++;
            }
        }
    }
    Py_DECREF(melds);

    PyObject *rivers = four(PyTuple_GET_ITEM(st, 6), "rivers");
    if (!rivers) return -1;
    PyObject *called = four(PyTuple_GET_ITEM(st, 7), "river_called");
    if (!called) { Py_DECREF(rivers); return -1; }
    int last_river[4] = {-1, -1, -1, -1}, last_called[4] = {0, 0, 0, 0};
    for (int p = 0; p < 4; p++) {
        int r[MAXRIVER], f[MAXRIVER], nr, nf;
        if (int_seq(PySequence_Fast_GET_ITEM(rivers, p), MAXRIVER, 0, 33, "a river tile", r, &nr) < 0 ||
            int_seq(PySequence_Fast_GET_ITEM(called, p), MAXRIVER, 0, 1, "a called flag", f, &nf) < 0) {
            Py_DECREF(rivers);
            Py_DECREF(called);
            return -1;
        }
        if (nr != nf) {
            Py_DECREF(rivers);
            Py_DECREF(called);
            return fail("MCR rollout state: seat %d has %d river tiles and %d called flags", p, nr, nf);
        }
        for (int i = 0; i < nr; i++)
            if (!f[i]) {
                s->visible[r[i]]++;
                total[r[i]]++;
            }
        if (nr) {
            last_river[p] = r[nr - 1];
            last_called[p] = f[nr - 1];
        }
    }
    Py_DECREF(rivers);
    Py_DECREF(called);

    PyObject *walls = four(PyTuple_GET_ITEM(st, 8), "walls");
    if (!walls) return -1;
    for (int p = 0; p < 4; p++) {
        if (int_seq(PySequence_Fast_GET_ITEM(walls, p), MAXWALL, 0, 33, "a wall tile", s->wall[p],
                    &s->wlen[p]) < 0) {
            Py_DECREF(walls);
            return -1;
        }
        for (int i = 0; i < s->wlen[p]; i++) total[s->wall[p][i]]++;
    }
    Py_DECREF(walls);

    for (int k = 0; k < 34; k++)
        if (total[k] > 4)
            return fail("MCR rollout state: %d copies of kind %d (hands, melds, rivers, walls)",
                        total[k], k);

    /* the phase and the hand sizes it implies */
    int mover = s->phase == PH_ACT || s->phase == PH_DISCARD ? s->turn : -1;
    for (int p = 0; p < 4; p++) {
        int want = (p == mover ? 14 : 13) - 3 * s->nmelds[p];
        if (hand_n[p] != want)
            return fail("MCR rollout state: seat %d holds %d concealed tiles with %d melds, not %d "
                        "(phase %d, turn %d)", p, hand_n[p], s->nmelds[p], want, s->phase, s->turn);
    }
    if (s->phase == PH_ACT) {
        if (s->drawn < 0 || !s->c[s->turn][s->drawn])
            return fail("MCR rollout state: phase act needs the drawn tile in seat %d's hand", s->turn);
        if (s->after_kan && !has_kong[s->turn])
            return fail("MCR rollout state: a kong's replacement draw, but seat %d has no kong", s->turn);
    } else if (s->drawn >= 0) {
        return fail("MCR rollout state: a drawn tile outside phase act");
    } else if (s->after_kan) {
        return fail("MCR rollout state: after_kan outside phase act");
    }
    if (s->phase == PH_CLAIM) {
        int d = s->ev_seat;
        if (d != s->turn || s->ev_tile < 0 || last_river[d] != s->ev_tile || last_called[d])
            return fail("MCR rollout state: a claim window needs the discarder's last, unclaimed "
                        "river tile (seat %d, tile %d)", d, s->ev_tile);
    } else if (s->phase == PH_ROB) {
        int d = s->ev_seat, ok = 0;
        for (int i = 0; d == s->turn && s->ev_tile >= 0 && i < s->nmelds[d]; i++)
            ok |= s->mkind[d][i] == M_PROMOTED_KONG && s->mbase[d][i] == s->ev_tile;
        if (!ok)
            return fail("MCR rollout state: a rob window needs an added kong of tile %d by seat %d "
                        "(the seat to move)", s->ev_tile, d);
        if (s->wpos[d] >= s->wlen[d])
            return fail("MCR rollout state: seat %d's kong has no replacement tile left", d);
    } else if (s->ev_seat != -1 || s->ev_tile != -1) {
        return fail("MCR rollout state: an event seat or tile outside a claim or rob window");
    }
    for (int p = 0; p < 4; p++) {
        int sh = p == mover ? FALLBACK : mcr_code(s->c[p]);
        s->sh[p] = sh == FALLBACK ? UNKNOWN : sh;
    }
    return 0;
}

/* ------------------------------------------------------------------------- the rules */

static inline int remaining(const MS *s, int seat) { return s->wlen[seat] - s->wpos[seat]; }

/* MCRRound.wall_remaining: what the next player in turn can draw (0: the last discard). */
static inline int wall_remaining(const MS *s) { return remaining(s, (s->turn + 1) % 4); }

/* Whether ``seat`` wins with ``tile`` (drawn: tsumo; a discard or a robbed kong otherwise) as
 * MCRRound._rule_can_win_self / _rule_can_win_on decide: complete in some MCR form, then the
 * best reading of MCRRound._evaluate's context worth at least the minimum.  1 (``b`` holds
 * the reading), 0, or -1 when the count is not covered here. */
static int try_win(const MS *s, int seat, int tile, int tsumo, int robbing, Best *b) {
    if (s->sh[seat] >= 1) return 0; /* a tile lowers the shanten by one at most */
    Ctx c;
    memset(&c, 0, sizeof c);
    memcpy(c.counts, s->c[seat], sizeof c.counts);
    if (!tsumo) {
        if (c.counts[tile] >= 4) return 0;
        c.counts[tile]++;
    }
    int sh = mcr_code(c.counts);
    if (sh == FALLBACK) return -1;
    if (sh != -1) return 0;
    memcpy(c.all, c.counts, sizeof c.all);
    c.nmelds = s->nmelds[seat];
    for (int i = 0; i < c.nmelds; i++) {
        int k = s->mkind[seat][i], base = s->mbase[seat][i];
        c.mkind[i] = k;
        c.mbase[i] = base;
        if (k == M_CHOW) {
            c.all[base]++; c.all[base + 1]++; c.all[base + 2]++;
        } else {
            c.all[base] += k == M_PUNG ? 3 : 4;
        }
    }
    c.win = tile;
    c.self_drawn = tsumo;
    c.seat = (seat - s->dealer + 4) % 4;
    c.prevalent = s->prevalent;
    c.last_tile = wall_remaining(s) == 0 && !robbing;
    c.kong_repl = tsumo && s->after_kan;
    c.robbing = robbing;
    c.last_copy = c.counts[tile] == 1 && s->visible[tile] - (tsumo ? 0 : 1) == 3;
    if (c.all[tile] - c.counts[tile] == 3 && c.counts[tile] == 1) c.last_copy = 1; /* MCRContext */
    c.flowers = 0;
    int got = best_reading(&c, b);
    if (got < 0) return -1;
    return got == 1 && b->best.total >= s->min_fan;
}

static void settle_win(const MS *s, int winner, int target, int tsumo, const Best *b, MOut *o) {
    o->kind = END_HORA;
    o->winner = winner;
    o->target = target;
    o->fan = b->best.total;
    o->hits = b->best;
    for (int p = 0; p < 4; p++) o->deltas[p] = 0;
    for (int p = 0; p < 4; p++) {
        if (p == winner) continue;
        int pay = tsumo || p == target ? s->base + o->fan : s->base;
        o->deltas[p] -= pay;
        o->deltas[winner] += pay;
    }
}

/* GreedyMCRPolicy's discard: lowest MCR shanten after it, then the drawn tile, then honours
 * and terminals before 2 and 8 before the middle; among equals the first in the policy's
 * order (the drawn tile, then the hand's kinds from the highest).  The kind, or -1 (not
 * covered). */
static inline int outside_first(int k) {
    if (k >= 27 || k % 9 == 0 || k % 9 == 8) return 0;
    return k % 9 == 1 || k % 9 == 7 ? 1 : 2;
}

static int greedy_discard(MS *s, int seat, int drawn, int *after) {
    int *c = s->c[seat];
    int best = -1, best_key = 1 << 30;
    for (int i = -1; i < 34; i++) {
        int k, t;
        if (i < 0) {
            if (drawn < 0) continue;
            k = drawn;
            t = 0;
        } else {
            k = 33 - i;
            if (k == drawn || !c[k]) continue;
            t = 1;
        }
        c[k]--;
        int sh = mcr_code(c);
        c[k]++;
        if (sh == FALLBACK) return -1;
        int key = (sh + 2) * 16 + t * 4 + outside_first(k);
        if (key < best_key) {
            best_key = key;
            best = k;
            *after = sh;
        }
    }
    return best;
}

/* GreedyFoldMCRPolicy (tenpai.search.mcr.policies): when another seat shows THREAT_MELDS
 * melds or more and greedy's discard leaves the hand FOLD_SHANTEN or more from ready, the kind
 * with the most copies in the seat's view (its own and the visible ones), then the drawn tile,
 * then outside_first, then the highest kind. */
#define THREAT_MELDS 2
#define FOLD_SHANTEN 2

static int policy_discard(MS *s, int seat, int drawn, int *after) {
    int k = greedy_discard(s, seat, drawn, after);
    if (!s->fold || k < 0 || *after < FOLD_SHANTEN) return k;
    int threat = 0;
    for (int p = 0; p < 4; p++)
        if (p != seat && s->nmelds[p] >= THREAT_MELDS) threat = 1;
    if (!threat) return k;
    const int *c = s->c[seat];
    int best = -1, best_key = 1 << 30;
    for (int i = -1; i < 34; i++) {
        int kind, t;
        if (i < 0) {
            if (drawn < 0) continue;
            kind = drawn;
            t = 0;
        } else {
            kind = 33 - i;
            if (kind == drawn || !c[kind]) continue;
            t = 1;
        }
        int key = (4 - s->visible[kind] - c[kind] + 8) * 16 + t * 4 + outside_first(kind);
        if (key < best_key) {
            best_key = key;
            best = kind;
        }
    }
    *after = UNKNOWN; /* discard() counts the shanten the fold leaves */
    return best;
}

static void draw(MS *s, int seat, int replacement) {
    int tile = s->wall[seat][s->wpos[seat]++];
    s->turn = seat;
    s->drawn = tile;
    s->after_kan = replacement;
    s->c[seat][tile]++;
    s->phase = PH_ACT;
}

/* A discard's claim window: the nearest seat in turn order that can win takes it; else the
 * hand is drawn (the next drawer's wall is empty) or the next seat draws.  1 = the hand ended,
 * 0 = play on, -1 = not covered. */
static int after_discard(MS *s, int seat, int tile, MOut *o) {
    for (int d = 1; d < 4; d++) {
        int p = (seat + d) % 4;
        Best b;
        int w = try_win(s, p, tile, 0, 0, &b);
        if (w < 0) return -1;
        if (w) {
            settle_win(s, p, seat, 0, &b, o);
            return 1;
        }
    }
    if (wall_remaining(s) == 0) {
        o->kind = END_EXHAUSTIVE;
        return 1;
    }
    draw(s, (seat + 1) % 4, 0);
    return 0;
}

/* ``after``: the seat's MCR shanten once the tile is gone (UNKNOWN: computed here). */
static int discard(MS *s, int seat, int tile, int after, MOut *o) {
    s->c[seat][tile]--;
    if (after == UNKNOWN) {
        after = mcr_code(s->c[seat]);
        if (after == FALLBACK) after = UNKNOWN;
    }
    s->sh[seat] = after;
    s->visible[tile]++;
    s->drawn = -1;
    s->after_kan = 0;
    s->phase = PH_CLAIM;
    return after_discard(s, seat, tile, o);
}

/* Play the hand to its end: 0 (``o`` filled) or -1 (not covered; ``o`` undefined). */
static int play(MS *s, int first, MOut *o) {
    memset(o, 0, sizeof *o);
    o->kind = END_EXHAUSTIVE;
    o->winner = o->target = -1;
    int r = 0;
    if (s->phase == PH_CLAIM) {
        r = after_discard(s, s->ev_seat, s->ev_tile, o);
    } else if (s->phase == PH_ROB) {
        int seat = s->ev_seat;
        for (int d = 1; d < 4 && !r; d++) {
            int p = (seat + d) % 4;
            Best b;
            int w = try_win(s, p, s->ev_tile, 0, 1, &b);
            if (w < 0) return -1;
            if (w) {
                settle_win(s, p, seat, 0, &b, o);
                r = 1;
            }
        }
        if (!r) draw(s, seat, 1);
    } else if (first >= 0) {
        r = discard(s, s->turn, first, UNKNOWN, o);
    }
    while (r == 0) {
        int seat = s->turn;
        if (s->phase == PH_ACT) {
            Best b;
            int w = try_win(s, seat, s->drawn, 1, 0, &b);
            if (w < 0) return -1;
            if (w) {
                settle_win(s, seat, seat, 1, &b, o);
                break;
            }
        }
        int after = UNKNOWN;
        int k = policy_discard(s, seat, s->phase == PH_ACT ? s->drawn : -1, &after);
        if (k < 0) return -1;
        r = discard(s, seat, k, after, o);
    }
    return r < 0 ? -1 : 0;
}

/* ------------------------------------------------------------------------- module */

static PyObject *run(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *st;
    int first, policy = 0;
    if (!PyArg_ParseTuple(args, "Oi|i", &st, &first, &policy)) return NULL;
    if (policy != 0 && policy != 1)
        return fail("MCR rollout: policy %d (0 greedy, 1 greedy-fold)", policy), NULL;
    if (!configured || !tables_ready) {
        PyErr_SetString(PyExc_RuntimeError,
                        "tenpai.rules.mcr._mcr_rollout: configure_fans() and configure_shanten() first");
        return NULL;
    }
    MS s;
    if (read_state(st, &s) < 0) return NULL;
    s.fold = policy;
    if (first >= 0) {
        if (first > 33 || (s.phase != PH_ACT && s.phase != PH_DISCARD) || !s.c[s.turn][first])
            return fail("MCR rollout: the first discard %d is not a tile seat %d holds at a draw or "
                        "after a call", first, s.turn), NULL;
    } else if (first != -1) {
        return fail("MCR rollout: first discard %d (-1 for none)", first), NULL;
    }
    MOut o;
    if (play(&s, first, &o) < 0) Py_RETURN_NOTIMPLEMENTED;
    int nh = o.kind == END_HORA ? o.hits.n : 0;
    PyObject *fans = PyTuple_New(nh);
    if (!fans) return NULL;
    for (int i = 0; i < nh; i++) {
        PyObject *e = Py_BuildValue("(ii)", o.hits.fan[i], o.hits.cnt[i]);
        if (!e) { Py_DECREF(fans); return NULL; }
        PyTuple_SET_ITEM(fans, i, e);
    }
    return Py_BuildValue("(iiii(iiii)N)", o.kind, o.winner, o.target, o.fan, o.deltas[0],
                         o.deltas[1], o.deltas[2], o.deltas[3], fans);
}

/* configure_shanten(suit, honor, mp_class, n_pin, sh_class, n_honor, final, n_sh, invalid,
 *                   mp_vectors, sh_vectors): the buffers tenpai.hand.accel.table_buffers()
 * lists, as _accel.c receives them (the vector tables held for the MCR shanten). */
static PyObject *configure_shanten(PyObject *self, PyObject *args) {
    (void)self;
    if (tables_ready) {
        shanten_tables_release(&mpv_buf, &shv_buf);
        tables_ready = 0;
    }
    if (shanten_tables_take(args, "_mcr_rollout.configure_shanten", &mpv_buf, &shv_buf) < 0)
        return NULL;
    tables_ready = 1;
    Py_RETURN_NONE;
}

static PyObject *set_error(PyObject *self, PyObject *cls) {
    (void)self;
    Py_INCREF(cls);
    Py_XSETREF(state_error, cls);
    Py_RETURN_NONE;
}

/* shanten(counts): the MCR shanten as this module computes it (a test hook: it must equal
 * tenpai.hand.shanten_mcr), or None when the tables miss the hand. */
static PyObject *shanten(PyObject *self, PyObject *obj) {
    (void)self;
    int c[34], n;
    if (!tables_ready) {
        PyErr_SetString(PyExc_RuntimeError, "configure_shanten() first");
        return NULL;
    }
    if (int_seq(obj, 34, 0, 4, "a count", c, &n) < 0) return NULL;
    if (n != 34) return fail("shanten: 34 counts expected, got %d", n), NULL;
    int sh = mcr_code(c);
    if (sh == FALLBACK) Py_RETURN_NONE;
    return PyLong_FromLong(sh);
}

static PyMethodDef methods[] = {
    {"run", run, METH_VARARGS,
     "run(state, first_discard, policy=0): play one botzone hand from a state with the greedy "
     "(0) or greedy-fold (1) policy in every seat: (kind, winner, target, fan, deltas, fans) "
     "or NotImplemented."},
    {"configure_fans", configure, METH_VARARGS, "Hand over the fan table (as _fans.configure)."},
    {"configure_shanten", configure_shanten, METH_VARARGS, "Hand over the shanten tables."},
    {"set_error", set_error, METH_O, "The ValueError subclass bad states raise."},
    {"shanten", shanten, METH_O, "MCR shanten of 34 counts (test hook), or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_mcr_rollout",
                                    "Compiled MCR rollouts (see tenpai.search.mcr.compiled).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__mcr_rollout(void) {
    (void)evaluate; /* _fans' Python entry point, unused here */
    (void)chiitoi;  /* shared with _accel.c */
    (void)riichi_code;
    (void)hand_init;
    (void)hand_draw_row;
    if (fans_init() < 0) return NULL;
    init_kinds();
    init_knitted();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "ABI", MCR_ROLLOUT_ABI) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
