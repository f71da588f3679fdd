/*
 * Optional compiled per-step table: one Riichi hand stepped decision by decision from Python,
 * behind the interface RiichiGame uses of RiichiRound (tenpai.rules.riichi.compiled_round).
 *
 * The Python engine (tenpai.engine.table.TableRound + tenpai.rules.riichi.flow.round.RiichiRound)
 * is the specification: this file offers the same legal actions in the same order, applies the
 * answers by the same rules and reports the same events in the same order; the differential
 * tests (tests/engine/test_compiled_round.py) play seeded games on both.  It writes no
 * second copy of the rules: the hand's state (St), the rules' flags (RRules), the tiles in hands,
 * waits and furiten, the scorer, discards, calls, kans and (three players) Norths set aside with
 * their dora and replacement draws (may_kita, kan_set_down, kan_stood), the discard that passes
 * (discard_passed: furiten, the riichi deposit), the exhaustive draw and the four-kind aborts
 * are _rollout.c's, included below (its module functions are left out by
 * TENPAI_ROLLOUT_LIBRARY).  What is here is what a rollout never
 * needed: the legal actions of every decision as compact codes, answers chosen from outside
 * (a rob window that may be passed, a riichi declared apart from its discard, nine terminals),
 * the concealed hands in the engine's order, and the events.
 *
 * Action code (a Python int): bits 0-3 the type (X_* below), 4-9 the tile (pai), 10-15,
 * 16-21, 22-27 up to three more tiles (63: none), 28-29 the actor, 30-31 the target.  The tiles
 * are the Event's: consumed for pon/chi/daiminkan, the four consumed (pai first) for ankan, the
 * pon's three tiles for kakan (pai the tile added).  Events come back as these codes (an action
 * taken, a draw, a dora indicator, the end of the hand) or, with data, as tuples.
 */
#define TENPAI_ROLLOUT_LIBRARY
#pragma GCC diagnostic ignored "-Wunused-function"
#include "_rollout.c"

#define TABLE_ABI 2
#define MAX_LEGAL 48
#define NO_TILE 63

enum {
    X_DAHAI, X_TSUMOGIRI, X_HORA, X_REACH, X_ANKAN, X_KAKAN, X_PON, X_CHI, X_DAIMINKAN,
    X_NINE, X_NONE, X_NUKI, E_TSUMO, E_DORA, E_END_KYOKU
};
#define C_TYPE(c) ((int)((c)&15))
#define C_PAI(c) ((int)((c) >> 4 & 63))
#define C_T(c, i) ((int)((c) >> (10 + 6 * (i)) & 63))
/* The table's phases, as TableRound names them. */
enum { TP_ACT, TP_DISCARD, TP_CLAIM, TP_ROB, TP_ENDED };

typedef struct {
    PyObject_HEAD
    RRules r;
    St st;
    int hl[4][18], nh[4]; /* the concealed tiles in the engine's order (a draw appended) */
    int phase;
    int kan_seat, kan_tile, kan_type; /* the kan (or North, KAN_KITA) whose rob window is open */
    int n_pend, pend_seat[4], pend_n[4];
    long long pend[4][MAX_LEGAL];
    PyObject *events; /* compact events since the last events() call */
    int res_kind, res_code, res_winners, res_tenpai, res_deltas[4];
    int failed; /* an internal inconsistency: every later call refuses */
    int special; /* the events since the last drain hold more than draws and discards */
} Table;

static PyObject *table_error; /* ValueError subclass for bad input (set_table_error) */
/* code -> Event, shared with compiled_round.py (set_events), and its decoder for a code not
 * seen yet: a step hands back the engine's Event objects without a Python call per action. */
static PyObject *event_cache, *event_decode;

static PyObject *event_lookup(long long code) {
    PyObject *key = PyLong_FromLongLong(code);
    if (key == NULL) return NULL;
    if (event_cache == NULL) return key; /* no cache handed over: the bare code */
    PyObject *e = PyDict_GetItemWithError(event_cache, key);
    if (e != NULL) {
        Py_INCREF(e);
        Py_DECREF(key);
        return e;
    }
    if (PyErr_Occurred()) {
        Py_DECREF(key);
        return NULL;
    }
    e = PyObject_CallOneArg(event_decode, key);
    if (e != NULL && PyDict_SetItem(event_cache, key, e) < 0) Py_CLEAR(e);
    Py_DECREF(key);
    return e;
}

/* The Events of most steps (a discard, a tsumogiri, a draw), by type, tile and seat: found
 * without a dictionary look-up.  Filled from the cache; emptied when the cache changes. */
static PyObject *simple_events[3][37][4];

static void forget_simple_events(void) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 37; j++)
            for (int k = 0; k < 4; k++) Py_CLEAR(simple_events[i][j][k]);
}

static PyObject *event_for(long long code) {
    int ty = C_TYPE(code);
    int slot = ty == X_DAHAI ? 0 : ty == X_TSUMOGIRI ? 1 : ty == E_TSUMO ? 2 : -1;
    if (slot < 0 || event_cache == NULL) return event_lookup(code);
    PyObject **p = &simple_events[slot][C_PAI(code) % 37][code >> 28 & 3];
    if (*p == NULL) {
        *p = event_lookup(code);
        if (*p == NULL) return NULL;
    }
    Py_INCREF(*p);
    return *p;
}

static inline long long code_of(int type, int pai, int t0, int t1, int t2, int actor, int target) {
    return (long long)type | (long long)pai << 4 | (long long)t0 << 10 | (long long)t1 << 16 |
           (long long)t2 << 22 | (long long)actor << 28 | (long long)target << 30;
}

/* ------------------------------------------------------------------------- plumbing */

static int emit_obj(Table *t, PyObject *o) {
    if (o == NULL) return -1;
    if (PyTuple_Check(o)) t->special = 1;
    int r = PyList_Append(t->events, o);
    Py_DECREF(o);
    return r;
}

static int emit_code(Table *t, long long c) {
    int ty = C_TYPE(c);
    if (!(ty == X_DAHAI || ty == X_TSUMOGIRI || ty == E_TSUMO || ty == X_REACH)) t->special = 1;
    return emit_obj(t, event_for(c));
}

/* The dora indicators turned since ``before`` (each its own event, as RiichiRound emits). */
static int emit_dora(Table *t, int before) {
    for (int i = before; i < t->st.n_dora; i++)
        if (emit_code(t, code_of(E_DORA, t->st.dora[i], NO_TILE, NO_TILE, NO_TILE, 0, 0)) < 0)
            return -1;
    return 0;
}

static void hl_add(Table *t, int s, int tile) { t->hl[s][t->nh[s]++] = tile; }

/* list.remove: the first copy in the engine's order. */
static void hl_remove(Table *t, int s, int tile) {
    for (int i = 0; i < t->nh[s]; i++)
        if (t->hl[s][i] == tile) {
            memmove(&t->hl[s][i], &t->hl[s][i + 1], sizeof(int) * (size_t)(t->nh[s] - i - 1));
            t->nh[s]--;
            return;
        }
    t->failed = 1;
}

static PyObject *hand_tuple(const Table *t, int s) {
    PyObject *h = PyTuple_New(t->nh[s]);
    if (h == NULL) return NULL;
    for (int i = 0; i < t->nh[s]; i++) PyTuple_SET_ITEM(h, i, PyLong_FromLong(t->hl[s][i]));
    return h;
}

static void pend_clear(Table *t) { t->n_pend = 0; }

static long long *pend_open(Table *t, int seat) {
    int i = t->n_pend++;
    t->pend_seat[i] = seat;
    t->pend_n[i] = 0;
    return t->pend[i];
}

static inline void pend_push(Table *t, long long c) {
    int i = t->n_pend - 1;
    if (t->pend_n[i] >= MAX_LEGAL) {
        t->failed = 1;
        return;
    }
    t->pend[i][t->pend_n[i]++] = c;
}

/* A shanten look-up of the hand with kind k moved by d (0: as it is). */
static int shanten_moved(Table *t, int s, int k, int d) {
    Hand h = t->st.hand[s];
    if (d) hand_move(&h, k, d);
    int v = hand_riichi(&h);
    if (v == FALLBACK) {
        bad_lookup = 1;
        return 99;
    }
    return v;
}

/* ------------------------------------------------------------------------- legal actions */

/* RiichiRound._rule_can_win_on: the kind among the waits, no furiten, a yaku. */
static int can_win_on(Table *t, int s, int tile, int from, int robbing) {
    St *st = &t->st;
    if (!(waits_of(st, s) >> kind_of_code(tile) & 1) || furiten(st, s)) return 0;
    long long d[4];
    st->chankan = robbing;
    int got = score_win(st, &t->r, s, from, tile, 0, st->honba, st->kyotaku, d);
    st->chankan = 0;
    if (got < 0) t->failed = 1;
    return got == 1;
}

/* TableRound._discards: every distinct tile code held (the drawn tile apart), ascending, those
 * of a banned kind left out; the drawn tile last as a tsumogiri.  ``ready_only``: only the
 * discards that leave the hand ready (RiichiRound._riichi_discards). */
static void push_discards(Table *t, int s, int drawn, unsigned long long ban, int ready_only) {
    St *st = &t->st;
    int ready[34];
    for (int k = 0; k < 34; k++) ready[k] = -1;
    for (int code = 0; code < 37; code++) {
        int held = st->c37[s][code] - (code == drawn);
        int k = kind_of_code(code);
        if (held <= 0 || (ban >> k & 1)) continue;
        if (ready_only) {
            if (ready[k] < 0) ready[k] = shanten_moved(t, s, k, -1) == 0;
            if (!ready[k]) continue;
        }
        pend_push(t, code_of(X_DAHAI, code, NO_TILE, NO_TILE, NO_TILE, s, 0));
    }
    if (drawn >= 0) {
        int k = kind_of_code(drawn);
        if (ready_only) {
            if (ready[k] < 0) ready[k] = shanten_moved(t, s, k, -1) == 0;
            if (!ready[k]) return;
        }
        pend_push(t, code_of(X_TSUMOGIRI, drawn, NO_TILE, NO_TILE, NO_TILE, s, 0));
    }
}

/* RiichiRound._rule_self_actions: tsumo, closed kans by kind, added kans in meld order, the
 * nine-terminal draw, a North set aside, then in riichi the drawn tile alone, else riichi and
 * every discard. */
static void self_actions(Table *t, int s) {
    St *st = &t->st;
    const RRules *r = &t->r;
    pend_clear(t);
    pend_open(t, s);
    int drawn = st->drawn;
    if (shanten_moved(t, s, 0, 0) == -1) {
        long long d[4];
        int got = score_win(st, r, s, s, drawn, 1, st->honba, st->kyotaku, d);
        if (got < 0) t->failed = 1;
        if (got == 1) pend_push(t, code_of(X_HORA, drawn, NO_TILE, NO_TILE, NO_TILE, s, s));
    }
    if (may_kan(st)) {
        for (int k = 0; k < 34; k++) {
            if (st->c34[s][k] != 4 || !ankan_allowed(st, s, k)) continue;
            int tiles[4], n = 0;
            for (int c = 0; c < st->c37[s][k]; c++) tiles[n++] = k;
            if (RED_OF_KIND[k] && st->c37[s][RED_OF_KIND[k]] && n < 4) tiles[n++] = RED_OF_KIND[k];
            if (n != 4) {
                t->failed = 1;
                return;
            }
            pend_push(t, code_of(X_ANKAN, tiles[0], tiles[1], tiles[2], tiles[3], s, 0));
        }
        for (int i = 0; i < st->n_melds[s]; i++) {
            const CMeld *m = &st->melds[s][i];
            int k = kind_of_code(m->tiles[0]);
            if (m->type != MT_PON || !st->c34[s][k] || st->riichi[s]) continue;
            int added = -1;
            for (int j = 0; j < t->nh[s] && added < 0; j++)
                if (kind_of_code(t->hl[s][j]) == k) added = t->hl[s][j];
            pend_push(t, code_of(X_KAKAN, added, m->tiles[0], m->tiles[1], m->tiles[2], s, 0));
        }
    }
    if (r->abortive_draws && first_go_around(st, s)) {
        int kinds = 0;
        for (int k = 0; k < 34; k++) kinds += TERM_HONOR[k] && st->c34[s][k];
        if (kinds >= 9) pend_push(t, code_of(X_NINE, 0, NO_TILE, NO_TILE, NO_TILE, s, 0));
    }
    if (may_kita(st, r, s)) /* RiichiRound._kita_actions (three players) */
        pend_push(t, code_of(X_NUKI, NORTH, NO_TILE, NO_TILE, NO_TILE, s, 0));
    if (st->riichi[s]) {
        pend_push(t, code_of(X_TSUMOGIRI, drawn, NO_TILE, NO_TILE, NO_TILE, s, 0));
        return;
    }
    if (!st->open[s] && st->scores[s] >= r->riichi_min_points &&
        remaining(st) >= r->riichi_min_wall && shanten_moved(t, s, 0, 0) <= 0)
        pend_push(t, code_of(X_REACH, 0, NO_TILE, NO_TILE, NO_TILE, s, 0));
    push_discards(t, s, drawn, 0, 0);
}

/* TableRound._has_discard_after with RiichiRound's kuikae. */
static int discard_after(Table *t, int s, int k, int a, int b, int chi) {
    return has_discard_after(&t->st, s, a, b, kuikae_ban(&t->r, k, a, b, chi));
}

/* The codes of kind k held, ascending (the plain copies, then the red five). */
static int codes_of_kind(const St *st, int s, int k, int *out) {
    int n = 0;
    if (st->c37[s][k]) out[n++] = k;
    if (RED_OF_KIND[k] && st->c37[s][RED_OF_KIND[k]]) out[n++] = RED_OF_KIND[k];
    return n;
}

/* TableRound._claims: win, pons (distinct pairs, sorted), an open kan, chis (runs with the
 * called tile low, middle, high; the held codes ascending); then the pass. */
static void claim_actions(Table *t, int s, int tile, int d) {
    St *st = &t->st;
    int k = kind_of_code(tile), n = st->n, started = 0;
#define OPEN()                 \
    do {                       \
        if (!started) {        \
            pend_open(t, s);   \
            started = 1;       \
        }                      \
    } while (0)
    if (can_win_on(t, s, tile, d, 0)) {
        OPEN();
        pend_push(t, code_of(X_HORA, tile, NO_TILE, NO_TILE, NO_TILE, s, d));
    }
    if (!st->riichi[s] && remaining(st) > 0) {
        int c = st->c34[s][k];
        int chi_ok = n == 4 && s == (d + 1) % n && k < 27;
        if (c >= 2) {
            int plain = st->c37[s][k], red = RED_OF_KIND[k] && st->c37[s][RED_OF_KIND[k]];
            if (plain >= 2 && discard_after(t, s, k, k, k, 0)) {
                OPEN();
                pend_push(t, code_of(X_PON, tile, k, k, NO_TILE, s, d));
            }
            if (plain >= 1 && red && discard_after(t, s, k, k, k, 0)) {
                OPEN();
                pend_push(t, code_of(X_PON, tile, k, RED_OF_KIND[k], NO_TILE, s, d));
            }
            if (c == 3 && may_kan(st)) {
                int same[3], m = 0;
                for (int j = 0; j < plain && m < 3; j++) same[m++] = k;
                if (red && m < 3) same[m++] = RED_OF_KIND[k];
                OPEN();
                pend_push(t, code_of(X_DAIMINKAN, tile, same[0], same[1], same[2], s, d));
            }
        }
        if (chi_ok) {
            static const int DA[3] = {-2, -1, 1}, DB[3] = {-1, 1, 2};
            int num = k % 9;
            for (int i = 0; i < 3; i++) {
                if (num + DA[i] < 0 || num + DB[i] > 8) continue;
                int a = k + DA[i], b = k + DB[i];
                if (!st->c34[s][a] || !st->c34[s][b]) continue;
                int ca[2], cb[2];
                int na = codes_of_kind(st, s, a, ca), nb = codes_of_kind(st, s, b, cb);
                for (int x = 0; x < na; x++)
                    for (int y = 0; y < nb; y++)
                        if (discard_after(t, s, k, a, b, 1)) {
                            OPEN();
                            pend_push(t, code_of(X_CHI, tile, ca[x], cb[y], NO_TILE, s, d));
                        }
            }
        }
    }
    if (started) pend_push(t, code_of(X_NONE, 0, NO_TILE, NO_TILE, NO_TILE, s, d));
#undef OPEN
}

/* ------------------------------------------------------------------------- endings */

static int end_hand(Table *t, int kind, int code) {
    t->res_kind = kind;
    t->res_code = code;
    t->phase = TP_ENDED;
    pend_clear(t);
    return emit_code(t, code_of(E_END_KYOKU, 0, NO_TILE, NO_TILE, NO_TILE, 0, 0));
}

static PyObject *deltas_tuple(const Table *t, const int *d) {
    PyObject *o = PyTuple_New(t->st.n);
    if (o == NULL) return NULL;
    for (int i = 0; i < t->st.n; i++) PyTuple_SET_ITEM(o, i, PyLong_FromLong(d[i]));
    return o;
}

/* RiichiRound._abort: ("ryukyoku", actor or -1, abort code, deltas of zeros). */
static int abort_hand(Table *t, int code, int actor) {
    int zeros[4] = {0, 0, 0, 0};
    memset(t->res_deltas, 0, sizeof t->res_deltas);
    t->res_tenpai = 0;
    if (emit_obj(t, Py_BuildValue("(siiN)", "ryukyoku", actor, code, deltas_tuple(t, zeros))) < 0)
        return -1;
    return end_hand(t, K_ABORTIVE, code);
}

/* RiichiRound._rule_exhaustive through _rollout.c's exhaustive(): ("ryukyoku", -1, code,
 * deltas, tehais with None for the hands not ready). */
static int exhaustive_draw(Table *t) {
    Outcome out;
    memset(&out, 0, sizeof out);
    exhaustive(&t->st, &t->r, &out);
    memcpy(t->res_deltas, out.deltas, sizeof out.deltas);
    t->res_tenpai = out.tenpai;
    int n = t->st.n;
    PyObject *tehais = PyTuple_New(n);
    if (tehais == NULL) return -1;
    for (int s = 0; s < n; s++) {
        PyObject *h;
        if (out.tenpai >> s & 1)
            h = hand_tuple(t, s);
        else {
            h = Py_None;
            Py_INCREF(h);
        }
        if (h == NULL) {
            Py_DECREF(tehais);
            return -1;
        }
        PyTuple_SET_ITEM(tehais, s, h);
    }
    if (emit_obj(t, Py_BuildValue("(siiNN)", "ryukyoku", -1, out.code,
                                  deltas_tuple(t, out.deltas), tehais)) < 0)
        return -1;
    return end_hand(t, K_EXHAUSTIVE, out.code);
}

/* RiichiRound._rule_wins: the triple-ron abort, one winner where double ron is off, then each
 * win scored in turn order (honba and deposits to the first) and reported with what the
 * Python scorer needs to value it again: ("hora", seat, target, tile, tsumo, riichi,
 * double_riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou, dora shown,
 * honba, deposits, pao or -1, deltas, concealed hand). */
static int wins(Table *t, int *seats, int nw, int target, int tile, int tsumo, int robbing) {
    St *st = &t->st;
    const RRules *r = &t->r;
    if (nw == 3 && r->triple_ron_abort) return abort_hand(t, A_TRIPLE_RON, -1);
    if (nw > 1 && !r->double_ron) nw = 1;
    st->reach_pending = -1;
    /* robbing a closed kan (kokushi) or a North set aside is not the chankan yaku */
    int chankan = robbing && t->kan_type == KAN_KAKAN;
    long long total[4] = {0, 0, 0, 0};
    int last = remaining(st) == 0;
    t->res_winners = 0;
    for (int i = 0; i < nw; i++) {
        int s = seats[i];
        long long d[4] = {0, 0, 0, 0};
        int honba = i == 0 ? st->honba : 0, kyotaku = i == 0 ? st->kyotaku : 0;
        st->chankan = chankan;
        int got = score_win(st, r, s, target, tile, tsumo, honba, kyotaku, d);
        st->chankan = 0;
        if (got != 1) {
            t->failed = 1;
            return -1;
        }
        int dd[4];
        for (int j = 0; j < 4; j++) {
            total[j] += d[j];
            dd[j] = (int)d[j];
        }
        int first = first_go_around(st, s);
        PyObject *ev = Py_BuildValue(
            "(siiiiiiiiiiiiiiiiiNN)", "hora", s, target, tile, tsumo, st->riichi[s],
            st->double_riichi[s], st->ippatsu[s], tsumo && last && !st->after_kan,
            !tsumo && last && !chankan, tsumo && st->after_kan, chankan,
            tsumo && first && s == st->oya, tsumo && first && s != st->oya, st->n_dora, honba,
            kyotaku, st->pao[s], deltas_tuple(t, dd), hand_tuple(t, s));
        if (emit_obj(t, ev) < 0) return -1;
        t->res_winners |= 1 << s;
    }
    for (int j = 0; j < st->n; j++) {
        st->scores[j] += (int)total[j];
        t->res_deltas[j] = (int)total[j];
    }
    st->kyotaku = 0;
    t->res_tenpai = 0;
    return end_hand(t, K_HORA, A_NONE);
}

/* ------------------------------------------------------------------------- moves */

static int after_draw(Table *t, int s) {
    hl_add(t, s, t->st.drawn);
    if (emit_code(t, code_of(E_TSUMO, t->st.drawn, NO_TILE, NO_TILE, NO_TILE, s, 0)) < 0)
        return -1;
    t->phase = TP_ACT;
    self_actions(t, s);
    return 0;
}

static int open_rob(Table *t, int seat, int tile, int type);
static int after_discard(Table *t, int d, const long long *answer);

/* TableRound._discard with RiichiRound's hooks, then the claim window. */
static int do_discard(Table *t, int s, int tile, int tsumogiri, int reach) {
    St *st = &t->st;
    int before = st->n_dora;
    discard(st, s, tile, reach);
    hl_remove(t, s, tile);
    if (emit_dora(t, before) < 0) return -1;
    if (emit_code(t, code_of(tsumogiri ? X_TSUMOGIRI : X_DAHAI, tile, NO_TILE, NO_TILE, NO_TILE, s,
                             0)) < 0)
        return -1;
    t->phase = TP_CLAIM;
    pend_clear(t);
    int k = kind_of_code(tile);
    for (int x = 0; x < st->n; x++) {
        if (x == s) continue;
        /* the engine's cheap screen: no pair, no wait and no run this tile completes */
        if (st->c34[x][k] < 2 && !(waits_of(st, x) >> k & 1)) {
            if (x != (s + 1) % st->n || k >= 27 || st->n != 4) continue;
            int num = k % 9;
            const int *c = st->c34[x];
            if (!((num >= 2 && c[k - 2] && c[k - 1]) || (num >= 1 && num <= 7 && c[k - 1] && c[k + 1]) ||
                  (num <= 6 && c[k + 1] && c[k + 2])))
                continue;
        }
        claim_actions(t, x, tile, s);
    }
    if (t->n_pend) return 0;
    long long none[4] = {-1, -1, -1, -1};
    return after_discard(t, s, none);
}

/* RiichiRound's call through _rollout.c's apply_call: the meld, pao, kuikae; an open kan's
 * dora and replacement draw. */
static int do_call(Table *t, long long code) {
    St *st = &t->st;
    int s = (int)(code >> 28 & 3), d = (int)(code >> 30 & 3), type = C_TYPE(code);
    int tile = C_PAI(code);
    Call c = {type == X_CHI, C_T(code, 0), C_T(code, 1), type == X_DAIMINKAN, C_T(code, 2)};
    if (emit_code(t, code) < 0) return -1;
    int before = st->n_dora;
    hl_remove(t, s, c.a);
    hl_remove(t, s, c.b);
    if (c.kan) hl_remove(t, s, c.c);
    apply_call(st, &t->r, s, d, tile, &c);
    if (c.kan) {
        if (emit_dora(t, before) < 0) return -1;
        return after_draw(t, s);
    }
    t->phase = TP_DISCARD;
    pend_clear(t);
    pend_open(t, s);
    push_discards(t, s, -1, st->banned, 0);
    return 0;
}

/* TableRound._after_discard with RiichiRound's hooks: furiten for the missed tile, the riichi
 * deposit (and the four-riichi abort), the call, four winds, four kans, the exhaustive draw,
 * the next draw.  answer[s]: the code seat s answered (-1: none). */
static int after_discard(Table *t, int d, const long long *answer) {
    St *st = &t->st;
    const RRules *r = &t->r;
    int n = st->n, tile = st->river[d][st->n_river[d] - 1];
    /* nobody answered with a win here (wins() took the hand), so every seat passed the tile */
    int passed = discard_passed(st, r, d, kind_of_code(tile));
    if (passed != PASSED) {
        PyObject *sc = deltas_tuple(t, st->scores);
        if (emit_obj(t, Py_BuildValue("(siN)", "reach_accepted", d, sc)) < 0) return -1;
        if (passed == PASSED_FOUR_RIICHI) return abort_hand(t, A_FOUR_RIICHI, -1);
    }
    long long call = -1;
    for (int s = 0; s < n; s++) { /* a pon or open kan before a chi */
        if (s == d || answer[s] < 0) continue;
        int ty = C_TYPE(answer[s]);
        if ((ty == X_PON || ty == X_DAIMINKAN) && (call < 0 || C_TYPE(call) == X_CHI))
            call = answer[s];
        else if (ty == X_CHI && call < 0)
            call = answer[s];
    }
    if (call >= 0) return do_call(t, call);
    if (r->abortive_draws && four_winds(st)) return abort_hand(t, A_FOUR_WINDS, -1);
    if (four_kans(st, r)) return abort_hand(t, A_FOUR_KANS, -1);
    if (remaining(st) == 0) return exhaustive_draw(t);
    draw(st, (d + 1) % n);
    return after_draw(t, (d + 1) % n);
}

/* TableRound._ankan / _kakan and RiichiRound._kita through _rollout.c's kan_set_down (a
 * closed kan's dora at once), the event, then the rob window. */
static int do_set_down(Table *t, int s, long long code, int type) {
    St *st = &t->st;
    int pai = C_PAI(code), before = st->n_dora;
    int tile = kan_set_down(st, &t->r, s, type, kind_of_code(pai));
    if (tile < 0 || (type != KAN_ANKAN && tile != pai)) {
        t->failed = 1;
        return -1;
    }
    hl_remove(t, s, pai);
    if (type == KAN_ANKAN)
        for (int i = 0; i < 3; i++) hl_remove(t, s, C_T(code, i));
    if (emit_code(t, code) < 0 || emit_dora(t, before) < 0) return -1;
    return open_rob(t, s, tile, type);
}

/* TableRound._resolve_rob's standing kan (or North) through _rollout.c's kan_stood: the
 * missed tile's furiten, an added kan now a call with its dora owed, a North's end of ippatsu
 * and the first go-around; then the replacement draw. */
static int kan_stands(Table *t, int seat) {
    St *st = &t->st;
    int before = st->n_dora;
    kan_stood(st, &t->r, seat, t->kan_type, t->kan_tile);
    if (emit_dora(t, before) < 0) return -1;
    draw_rinshan(st, seat);
    if (bad_lookup) {
        t->failed = 1;
        return -1;
    }
    return after_draw(t, seat);
}

/* TableRound._open_rob with RiichiRound._rule_rob_candidates: an added kan by any ron (with
 * chankan), a closed kan by a ready kokushi where the preset allows, a North by an ordinary
 * ron. */
static int open_rob(Table *t, int seat, int tile, int type) {
    St *st = &t->st;
    t->kan_seat = seat;
    t->kan_tile = tile;
    t->kan_type = type;
    pend_clear(t);
    for (int s = 0; s < st->n; s++) {
        if (s == seat) continue;
        if (type == KAN_ANKAN && !(t->r.kokushi_robs_ankan && kokushi_ready(st, s))) continue;
        if (!can_win_on(t, s, tile, seat, type != KAN_KITA)) continue;
        pend_open(t, s);
        pend_push(t, code_of(X_HORA, tile, NO_TILE, NO_TILE, NO_TILE, s, seat));
        pend_push(t, code_of(X_NONE, 0, NO_TILE, NO_TILE, NO_TILE, s, seat));
    }
    t->phase = TP_ROB;
    if (t->n_pend) return 0;
    return kan_stands(t, seat);
}

/* Winners among the answers, in turn order from ``from``. */
static int winners_from(const Table *t, const long long *answer, int from, int *seats) {
    int nw = 0, n = t->st.n;
    for (int i = 1; i < n; i++) {
        int s = (from + i) % n;
        if (answer[s] >= 0 && C_TYPE(answer[s]) == X_HORA) seats[nw++] = s;
    }
    return nw;
}

static int self_step(Table *t, int s, long long code) {
    St *st = &t->st;
    switch (C_TYPE(code)) {
    case X_DAHAI:
    case X_TSUMOGIRI: {
        int reach = st->reach_pending == s;
        if (reach) st->reach_pending = -1; /* discard() sets it again with the riichi */
        return do_discard(t, s, C_PAI(code), C_TYPE(code) == X_TSUMOGIRI, reach);
    }
    case X_HORA: {
        int seats[1] = {s};
        return wins(t, seats, 1, s, C_PAI(code), 1, 0);
    }
    case X_ANKAN:
        return do_set_down(t, s, code, KAN_ANKAN);
    case X_KAKAN:
        return do_set_down(t, s, code, KAN_KAKAN);
    case X_NUKI:
        return do_set_down(t, s, code, KAN_KITA);
    case X_NINE:
        return abort_hand(t, A_NINE, s);
    case X_REACH:
        if (emit_code(t, code) < 0) return -1;
        st->reach_pending = s; /* the declaration stands with its discard */
        t->phase = TP_DISCARD;
        pend_clear(t);
        pend_open(t, s);
        push_discards(t, s, st->drawn, 0, 1);
        return 0;
    }
    t->failed = 1;
    return -1;
}

/* ------------------------------------------------------------------------- the type */

static void table_dealloc(Table *t) {
    Py_XDECREF(t->events);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

/* Table(state, rules): a hand at a draw (phase act), from a state tuple as _rollout.c reads it
 * (tenpai.rules.riichi.rollout.export_state's fields); the hands' tile order is kept. */
static int table_init(Table *t, PyObject *args, PyObject *kw) {
    PyObject *state, *rules;
    if (!PyArg_ParseTuple(args, "OO", &state, &rules)) return -1;
    if (!tables_ready) {
        PyErr_SetString(PyExc_RuntimeError, "_table.configure() has not been called");
        return -1;
    }
    Py_XSETREF(t->events, PyList_New(0));
    if (t->events == NULL) return -1;
    t->failed = 1; /* until the state is read */
    if (read_rules(rules, &t->r) < 0) return -1;
    if (read_state(state, &t->st, &t->r) < 0) return -1;
    St *st = &t->st;
    if (st->phase != PH_ACT) {
        PyErr_SetString(table_error, "compiled table: a hand starts at a draw (phase act)");
        return -1;
    }
    PyObject *hands = PyTuple_GET_ITEM(state, S_HANDS);
    for (int s = 0; s < st->n; s++) {
        int got = read_ints(PyTuple_GET_ITEM(hands, s), 0, 36, 14, "a hand", t->hl[s]);
        if (got < 0) return -1;
        t->nh[s] = got;
    }
    /* the drawn tile is the last of the engine's hand */
    int s = st->turn;
    if (t->hl[s][t->nh[s] - 1] != st->drawn) {
        PyErr_SetString(table_error, "compiled table: the drawn tile must be the hand's last");
        return -1;
    }
    st->chankan = 0;
    t->failed = 0;
    bad_lookup = 0;
    t->phase = TP_ACT;
    t->res_kind = -1;
    self_actions(t, s);
    if (bad_lookup || t->failed) {
        t->failed = 1;
        PyErr_SetString(PyExc_RuntimeError, "compiled table: an internal inconsistency");
        return -1;
    }
    return 0;
}

static int check_usable(Table *t) {
    if (t->events == NULL) {
        PyErr_SetString(table_error, "compiled table: not initialised");
        return -1;
    }
    if (t->failed) {
        PyErr_SetString(PyExc_RuntimeError,
                        "compiled table: unusable after an internal inconsistency");
        return -1;
    }
    return 0;
}

/* pending() -> ((seat, (code, ...), (Event, ...)), ...) in the engine's order (seats
 * ascending); the events are the codes' (the bare codes again before set_events). */
static PyObject *table_pending(Table *t, PyObject *unused) {
    if (check_usable(t) < 0) return NULL;
    PyObject *out = PyTuple_New(t->n_pend);
    if (out == NULL) return NULL;
    for (int i = 0; i < t->n_pend; i++) {
        PyObject *codes = PyTuple_New(t->pend_n[i]);
        if (codes == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyObject *evs = PyTuple_New(t->pend_n[i]);
        if (evs == NULL) {
            Py_DECREF(codes);
            Py_DECREF(out);
            return NULL;
        }
        for (int j = 0; j < t->pend_n[i]; j++) {
            PyObject *ev = event_for(t->pend[i][j]);
            if (ev == NULL) {
                Py_DECREF(codes);
                Py_DECREF(evs);
                Py_DECREF(out);
                return NULL;
            }
            PyTuple_SET_ITEM(codes, j, PyLong_FromLongLong(t->pend[i][j]));
            PyTuple_SET_ITEM(evs, j, ev);
        }
        PyObject *e = Py_BuildValue("(iNN)", t->pend_seat[i], codes, evs);
        if (e == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, e);
    }
    return out;
}

/* step(answers): one code per pending decision, in pending() order; -1 passes a claim or rob
 * window.  An answer that is not among the seat's legal codes is refused (table_error) and
 * the table is left as it was. */
static PyObject *table_step(Table *t, PyObject *arg) {
    if (check_usable(t) < 0) return NULL;
    if (t->phase == TP_ENDED) {
        PyErr_SetString(table_error, "compiled table: the hand is over");
        return NULL;
    }
    long long given[4];
    int got_n;
    {
        PyObject *fast = PySequence_Fast(arg, "compiled table: step() takes a sequence of codes");
        if (fast == NULL) return NULL;
        got_n = (int)PySequence_Fast_GET_SIZE(fast);
        if (got_n != t->n_pend) {
            Py_DECREF(fast);
            PyErr_Format(table_error, "compiled table: %d answers for %d pending decisions", got_n,
                         t->n_pend);
            return NULL;
        }
        for (int i = 0; i < got_n; i++) {
            PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
            long long v = PyLong_Check(o) ? PyLong_AsLongLong(o) : -2;
            if (v == -1 && PyErr_Occurred()) {
                PyErr_Clear();
                v = -2;
            }
            given[i] = v;
        }
        Py_DECREF(fast);
    }
    int claiming = t->phase == TP_CLAIM || t->phase == TP_ROB;
    long long answer[4] = {-1, -1, -1, -1};
    for (int i = 0; i < t->n_pend; i++) {
        int ok = claiming && given[i] == -1;
        for (int j = 0; j < t->pend_n[i] && !ok; j++) ok = t->pend[i][j] == given[i];
        if (!ok) {
            PyErr_Format(table_error, "compiled table: seat %d: code %lld is not legal here",
                         t->pend_seat[i], given[i]);
            return NULL;
        }
        answer[t->pend_seat[i]] = given[i];
    }
    bad_lookup = 0;
    int rc;
    if (!claiming) {
        rc = self_step(t, t->pend_seat[0], answer[t->pend_seat[0]]);
    } else {
        int seats[3], from = t->phase == TP_CLAIM ? t->st.turn : t->kan_seat;
        int nw = winners_from(t, answer, from, seats);
        if (t->phase == TP_CLAIM) {
            int d = t->st.turn;
            rc = nw ? wins(t, seats, nw, d, t->st.river[d][t->st.n_river[d] - 1], 0, 0)
                    : after_discard(t, d, answer);
        } else {
            rc = nw ? wins(t, seats, nw, t->kan_seat, t->kan_tile, 0, 1)
                    : kan_stands(t, t->kan_seat);
        }
    }
    if (rc < 0 || bad_lookup || t->failed) {
        t->failed = 1;
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "compiled table: an internal inconsistency");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* events() -> the events since the last call (Events, or codes before set_events, and tuples
 * for those with data), and forgets them. */
static PyObject *table_events(Table *t, PyObject *unused) {
    if (t->events == NULL) return PyList_New(0);
    PyObject *out = t->events;
    t->special = 0;
    t->events = PyList_New(0);
    if (t->events == NULL) {
        t->events = out;
        return NULL;
    }
    return out;
}

/* view() -> (hands in the engine's order, rivers, river_called, riichi, scores, live tiles
 * left, drawn or -1, turn, deposits, phase): what a seat's observation reads. */
static PyObject *table_view(Table *t, PyObject *unused) {
    if (t->events == NULL) {
        PyErr_SetString(table_error, "compiled table: not initialised");
        return NULL;
    }
    St *st = &t->st;
    int n = st->n;
    PyObject *hands = PyTuple_New(n), *rivers = PyTuple_New(n), *called = PyTuple_New(n);
    PyObject *riichi = PyTuple_New(n), *scores = PyTuple_New(n);
    if (!hands || !rivers || !called || !riichi || !scores) goto fail;
    for (int s = 0; s < n; s++) {
        PyObject *h = hand_tuple(t, s);
        PyObject *rv = PyTuple_New(st->n_river[s]), *cl = PyTuple_New(st->n_river[s]);
        if (!h || !rv || !cl) {
            Py_XDECREF(h);
            Py_XDECREF(rv);
            Py_XDECREF(cl);
            goto fail;
        }
        for (int i = 0; i < st->n_river[s]; i++) {
            PyTuple_SET_ITEM(rv, i, PyLong_FromLong(st->river[s][i]));
            PyTuple_SET_ITEM(cl, i, PyBool_FromLong(st->river_called[s][i]));
        }
        PyTuple_SET_ITEM(hands, s, h);
        PyTuple_SET_ITEM(rivers, s, rv);
        PyTuple_SET_ITEM(called, s, cl);
        PyTuple_SET_ITEM(riichi, s, PyBool_FromLong(st->riichi[s]));
        PyTuple_SET_ITEM(scores, s, PyLong_FromLong(st->scores[s]));
    }
    return Py_BuildValue("(NNNNNiiiii)", hands, rivers, called, riichi, scores, remaining(st),
                         t->phase == TP_CLAIM || t->phase == TP_ROB ? -1 : st->drawn, st->turn,
                         st->kyotaku, t->phase);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(rivers);
    Py_XDECREF(called);
    Py_XDECREF(riichi);
    Py_XDECREF(scores);
    return NULL;
}

/* result() -> None while the hand runs, else (kind, deltas, winners mask, tenpai mask, code). */
static PyObject *table_result(Table *t, PyObject *unused) {
    if (t->events == NULL || t->phase != TP_ENDED) Py_RETURN_NONE;
    return Py_BuildValue("(iNiii)", t->res_kind, deltas_tuple(t, t->res_deltas), t->res_winners,
                         t->res_tenpai, t->res_code);
}

/* advance(answers) -> (events, pending, special): step() then events() and pending() in one
 * call; ``special`` is 0 when the events are only draws, discards and riichi declarations
 * (nothing the Python side keeps track of). */
static PyObject *table_advance(Table *t, PyObject *arg) {
    PyObject *r = table_step(t, arg);
    if (r == NULL) return NULL;
    Py_DECREF(r);
    PyObject *pend = table_pending(t, NULL);
    if (pend == NULL) return NULL;
    int special = t->special;
    PyObject *evs = table_events(t, NULL);
    if (evs == NULL) {
        Py_DECREF(pend);
        return NULL;
    }
    return Py_BuildValue("(NNi)", evs, pend, special);
}

/* advance_one(answer) -> advance() of the one pending decision answered with ``answer``, found
 * by identity among the Events offered; None (nothing done) when it is not one of them, and
 * the caller maps the answer by equality instead. */
static PyObject *table_advance_one(Table *t, PyObject *answer) {
    if (check_usable(t) < 0) return NULL;
    if (t->n_pend != 1 || t->phase == TP_ENDED) Py_RETURN_NONE;
    long long code = -2;
    for (int j = 0; j < t->pend_n[0] && code == -2; j++) {
        PyObject *e = event_for(t->pend[0][j]);
        if (e == NULL) return NULL;
        if (e == answer) code = t->pend[0][j];
        Py_DECREF(e);
    }
    if (code == -2) Py_RETURN_NONE;
    PyObject *arg = Py_BuildValue("(L)", code);
    if (arg == NULL) return NULL;
    PyObject *r = table_advance(t, arg);
    Py_DECREF(arg);
    return r;
}

static PyMethodDef table_methods[] = {
    {"advance_one", (PyCFunction)table_advance_one, METH_O,
     "advance() with the one pending decision's offered Event, or None."},
    {"advance", (PyCFunction)table_advance, METH_O, "step(), then (events(), pending())."},
    {"pending", (PyCFunction)table_pending, METH_NOARGS, "The decisions owed: (seat, codes)."},
    {"step", (PyCFunction)table_step, METH_O, "Apply one code per pending decision."},
    {"events", (PyCFunction)table_events, METH_NOARGS, "The events since the last call."},
    {"view", (PyCFunction)table_view, METH_NOARGS, "What observations read."},
    {"result", (PyCFunction)table_result, METH_NOARGS, "How the hand ended, or None."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tenpai.rules.riichi._table.Table",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One Riichi hand stepped decision by decision (see compiled_round.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)table_init,
    .tp_dealloc = (destructor)table_dealloc,
    .tp_methods = table_methods,
};

/* set_error(cls): the ValueError subclass bad states and bad answers raise. */
static PyObject *set_table_error(PyObject *self, PyObject *cls) {
    PyObject *r = set_error(self, cls);
    if (r == NULL) return NULL;
    Py_INCREF(cls);
    Py_XSETREF(table_error, cls);
    return r;
}

/* set_events(cache, decode): the code -> Event dict to share and the decoder of new codes. */
static PyObject *set_events(PyObject *self, PyObject *args) {
    PyObject *cache, *decode;
    if (!PyArg_ParseTuple(args, "O!O", &PyDict_Type, &cache, &decode)) return NULL;
    if (!PyCallable_Check(decode)) {
        PyErr_SetString(PyExc_TypeError, "_table.set_events needs a callable decoder");
        return NULL;
    }
    forget_simple_events();
    Py_INCREF(cache);
    Py_XSETREF(event_cache, cache);
    Py_INCREF(decode);
    Py_XSETREF(event_decode, decode);
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_events", set_events, METH_VARARGS, "The shared code -> Event cache and its decoder."},
    {"configure", configure, METH_VARARGS, "Hand over the shanten tables."},
    {"set_error", set_table_error, METH_O, "The ValueError subclass bad input raises."},
    {"yaku_ids", yaku_ids_fn, METH_NOARGS, "The scorer's yaku table."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef table_module = {PyModuleDef_HEAD_INIT, "_table",
                                          "Compiled per-step Riichi table (compiled_round.py).",
                                          -1, module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__table(void) {
    (void)LIMIT_STR;
    (void)riichi_code;
    (void)hand_init;
    state_error = PyExc_ValueError;
    Py_INCREF(state_error);
    table_error = PyExc_ValueError;
    Py_INCREF(table_error);
    if (PyType_Ready(&TableType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&table_module);
    if (mod == NULL) return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(mod, "Table", (PyObject *)&TableType) < 0 ||
        PyModule_AddIntConstant(mod, "ABI", TABLE_ABI) < 0 ||
        PyModule_AddIntConstant(mod, "ROLLOUT_ABI", ABI) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
